@digest
Feature: The challenge
  A request for a protected resource without credentials gets 401 with a Digest challenge
  (realm, nonce, and qop from auth and auth-int; domain and opaque may occur) and the XML
  error body. The nonce is new in every 401: a nonce seen once is never handed out again.
  That rule binds every 401 of the run, whichever scenario got it and whatever it answered
  (credentials of any algorithm offered, right or flawed): the last scenario here is judged
  with them all, once every scenario has run.

  @DIG-1 @must @no-credentials
  Scenario: A request without credentials is challenged
    When the client requests the protected resource without credentials
    Then the reply is 401
    And the reply carries a Digest challenge with realm, nonce and qop

  @DIG-14 @should @no-credentials
  Scenario: The challenge is written as RFC 7616 §3.3 writes it
    realm, domain, nonce, opaque and qop are quoted strings; stale and algorithm are tokens,
    and algorithm is one of the registered names spelled as registered (MD5, SHA-256,
    SHA-512-256, each with an optional -sess). Clients match these exactly: a challenge with
    algorithm="md5" locks some of them out.

    When the client requests the protected resource without credentials
    Then the reply is 401
    And every Digest challenge is written as RFC 7616 §3.3 writes it

  @DIG-2 @must @no-credentials
  Scenario: The challenge comes with an XML error body
    When the client requests the protected resource without credentials
    Then the reply is 401
    And the reply carries an XML error body with a message

  @DIG-3 @must @no-credentials
  Scenario: Every challenge carries a nonce never sent before
    When the client requests the protected resource without credentials 3 times
    Then at least 3 replies so far are 401 with a Digest challenge, each with a nonce of its own

  @DIG-3 @must
  Scenario: The challenge after a refused answer carries a new nonce
    Given a challenge from the protected resource
    When the client answers it with a wrong secret
    And the client requests the protected resource without credentials
    Then at least 2 replies so far are 401 with a Digest challenge, each with a nonce of its own

  @DIG-3 @must @no-credentials
  Scenario: No two 401 replies of the run carry the same nonce
    When the client requests the protected resource without credentials
    Then no two 401 replies of the run carry the same nonce
