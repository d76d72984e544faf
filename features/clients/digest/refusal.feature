Feature: A client takes no for an answer
  A 401 without stale=true in reply to credentials the client computed says they are wrong
  (RFC 7616 §3.3): new credentials must be obtained. A client that sends the same secret again
  and again locks accounts and floods servers. sxd runs the task again and refuses the
  client's first credentials, right as they are, with 401 and a fresh challenge, no stale,
  on an offer of algorithms the client has been seen to answer. The control is that the client
  answered at all: a client whose own answer is flawed still shows whether it tries again.

  @CDIG-10 @must @digest-get
  Scenario: After a 401 without stale, the client does not try the same secret again
    Given the client has done the task "digest-get"
    And sxd answered its first credentials with 401 without stale=true
    Then it sends no more credentials computed from the same secret
