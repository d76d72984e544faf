Feature: Access with a digest
  The client repeats the request with an Authorization header whose digest it computed
  from the challenge and the shared secret. A digest that matches the stored credentials
  gets 200 with an application/xml body, and the server adds Authentication-Info, which
  should prove the server knows the secret too (rspauth, RFC 7616 §3.5); with qop auth-int,
  rspauth hashes the reply's body, not the request's (RFC 2617 §3.2.3, which RFC 7616 keeps).
  The secret itself never crosses the wire.

  The spec shows response = MD5(A1:nonce:A2) and not how nc, cnonce and qop enter it, so a
  server may compute it just so: where RFC 7616's digest is refused, the client answers a new
  challenge with the spec's formula, and the transcript marks that request as the retry. A
  refusal with stale=true only says the nonce aged: the client answers the new nonce with the
  same computation (RFC 7616 §3.3). A server should compute it as RFC 7616 says.

  The rows that build on a login (Authentication-Info, the secret, rspauth) are not run where
  no login gets in: that one failure belongs to the first scenario here.

  Background:
    Given a challenge from the protected resource

  @DIG-4 @must
  Scenario: A digest that matches the stored credentials gets the resource
    When the client answers it with valid credentials
    Then the client is granted access
    And the reply's Content-Type is "application/xml"

  @DIG-4 @should
  Scenario: The digest is computed as RFC 7616 says
    When the client answers it with valid credentials computed as RFC 7616 says
    Then the client is granted access

  @DIG-4 @must
  Scenario: Every algorithm offered gets the resource
    When the client answers a challenge of each algorithm offered with valid credentials
    Then each of them is granted access, with a body of type "application/xml"

  @DIG-5 @must
  Scenario: A successful reply carries Authentication-Info
    Given the client has logged in
    Then the reply carries Authentication-Info

  @DIG-5 @must
  Scenario: A successful reply to a request with qop auth-int carries Authentication-Info
    Given the client has logged in with qop auth-int
    Then the reply carries Authentication-Info

  @DIG-7 @must
  Scenario: The secret never crosses the wire
    Given the client has logged in
    Then no request carried the secret
    And no reply asks for the secret in clear text

  @DIG-11 @should
  Scenario: Authentication-Info proves the server knows the secret
    Given the client has logged in
    Then the Authentication-Info proves that the server knows the secret

  @DIG-11 @should
  Scenario: With qop auth-int, rspauth also covers the reply's body
    Given the client has logged in with qop auth-int
    Then the Authentication-Info proves that the server knows the secret
