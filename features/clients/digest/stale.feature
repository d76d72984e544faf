Feature: A client may retry on a stale nonce
  A 401 with stale=true says the credentials were right but the nonce is used up or expired
  (RFC 7616 §3.3). The client may then answer again with the new nonce, without asking for new
  credentials; the RFC leaves this to the client. sxd runs the task again, on an offer of
  algorithms the client has been seen to answer, and calls the client's first right answer
  stale: that right answer is the control. The client description states whether the client retries (digest.retriesStale):
  where it says so, giving up fails the row; where it says not, the row does not apply; where
  it is silent, a client that gives up is reported as not taking the option, never failed,
  though such a client breaks wherever nonces expire.

  @CDIG-6 @may @digest-get
  Scenario: After a 401 with stale=true the client answers again with the new nonce
    Given the client has done the task "digest-get"
    And sxd answered its first right credentials with 401 and stale=true
    Then answering again with the new nonce, without new credentials, takes the option
