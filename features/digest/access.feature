@digest
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

  A rule binds every algorithm the server offers: the rows that build on a login (DIG-4,
  Authentication-Info, rspauth) log in with each algorithm the challenge offers, each over a
  challenge of its own. An offered algorithm that RFC 7616 does not register is not tried, and
  the report says so; one whose login was refused is DIG-4's failure, and the others are judged.
  They are not run where no login gets in: that one failure belongs to the first scenario here.

  A rule binds every exchange of the run, too: a reply that granted the user's right credentials
  (qop auth, or none) without Authentication-Info, or with an rspauth that does not prove the
  secret, and a reply of the protected resource that asks for the secret in clear text, in
  whatever scenario sxd got it (a login of another row, a replay the server took, a refusal of
  flawed credentials), fails the row, with that exchange shown. A grant to wrong credentials is
  the breach of the row about them (DIG-6, DIG-12), not of these. Those three scenarios are
  judged once every scenario has run.

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
    Given the client has logged in with each algorithm offered
    Then each grant carries Authentication-Info

  @DIG-5 @must
  Scenario: A successful reply to a request with qop auth-int carries Authentication-Info
    Given the client has logged in with qop auth-int, with each algorithm offered
    Then each grant carries Authentication-Info

  @DIG-5 @must
  Scenario: Every grant of the run carries Authentication-Info
    Given the client has logged in
    Then every reply of the run that granted the user's credentials carries Authentication-Info

  @DIG-7 @must
  Scenario: The secret never crosses the wire
    Given the client has logged in
    Then no request carried the secret
    And no reply asks for the secret in clear text

  @DIG-7 @must
  Scenario: No reply of the run asks for the secret in clear text
    Given the client has logged in
    Then no reply of the run from the protected resource asks for the secret in clear text

  @DIG-11 @should
  Scenario: Authentication-Info proves the server knows the secret
    Given the client has logged in with each algorithm offered
    Then each Authentication-Info proves that the server knows the secret

  @DIG-11 @should
  Scenario: With qop auth-int, rspauth also covers the reply's body
    Given the client has logged in with qop auth-int, with each algorithm offered
    Then each Authentication-Info proves that the server knows the secret

  @DIG-11 @should
  Scenario: Every rspauth of the run proves the server knows the secret
    Given the client has logged in
    Then every rspauth of the run, on a right answer, proves that the server knows the secret
