Feature: A client may check that the server knows the secret
  A grant carries Authentication-Info with rspauth, computed from the secret like the
  client's response but with an empty method (RFC 7616 §3.5): it proves the server knows the
  secret too. A client may check it and treat a reply whose rspauth proves nothing as a
  failure. sxd runs the task again, on an offer of algorithms the client has been seen to
  answer, and grants it with an rspauth that proves nothing; the same task on the same offer,
  without it, must have succeeded. The client description states whether the client
  checks (digest.checksRspauth): where it says so, exiting 0 on that reply fails the row; where
  it says not, the row does not apply; where it is silent, exiting non-zero takes the option
  and exiting 0 is reported as not taking it, never failed.

  @CDIG-8 @may @digest-get
  Scenario: A reply whose rspauth does not prove the secret is a failure to the client
    Given the client has done the task "digest-get"
    And sxd granted it with an rspauth that does not prove the secret
    Then treating that reply as a failure takes the option
