Feature: A client answers the first algorithm it supports
  A server may offer several algorithms, one challenge each, in its order of preference. The
  client answers the first one it supports, and never one that was not offered (RFC 7616
  §3.7). What a client supports shows in what it answers: the task runs with SHA-256 then MD5
  offered, and again with MD5 first and with MD5 alone. MD5 is one every client supports (the
  spec has the client compute its response with MD5): offered several, MD5 among them, a client
  that answers none did not take the first it supports, which one exchange shows by itself.

  @CDIG-7 @should @digest-get
  Scenario: The client takes the first offered algorithm it supports
    Given the client has done the task "digest-get"
    And sxd ran it again with MD5 offered first, and with MD5 alone
    Then each time it answered the first offered algorithm it supports, never one not offered

  @CDIG-7 @should @digest-post
  Scenario: Sending a body, the client takes the first offered algorithm it supports
    Given the client has done the task "digest-post"
    And sxd ran it again with MD5 offered first, and with MD5 alone, where it answered none
    Then each time it answered the first offered algorithm it supports, never one not offered
