Feature: Access with a digest
  The client repeats the request with an Authorization header whose digest it computed
  from the challenge and the shared secret. A digest that matches the stored credentials
  gets 200 with an application/xml body, and the server adds Authentication-Info, which
  should prove the server knows the secret too (rspauth, RFC 7616 §3.5). The secret itself
  never crosses the wire.

  The spec shows response = MD5(A1:nonce:A2) and not how nc, cnonce and qop enter it, so a
  server may compute it just so: where RFC 7616's digest is refused, the client answers a new
  challenge with the spec's formula. A server should compute it as RFC 7616 says.

  Background:
    Given a challenge from the protected resource

  @DIG-4 @must
  Scenario: A digest that matches the stored credentials gets the resource
    When the client answers it with valid credentials
    Then the reply is 200
    And the reply's Content-Type is "application/xml"

  @DIG-4 @should
  Scenario: The digest is computed as RFC 7616 says
    When the client answers it with valid credentials computed as RFC 7616 says
    Then the reply is 200

  @DIG-4 @must
  Scenario Outline: Each offered algorithm gets the resource (<algorithm>)
    Given the challenge offers <algorithm>
    When the client answers it with valid <algorithm> credentials
    Then the reply is 200
    And the reply's Content-Type is "application/xml"

    Examples:
      | algorithm    |
      | SHA-256      |
      | MD5          |
      | SHA-256-sess |
      | MD5-sess     |

  @DIG-5 @must
  Scenario: A successful reply carries Authentication-Info
    When the client answers it with valid credentials
    Then the reply is 200
    And the reply carries Authentication-Info

  @DIG-7 @must
  Scenario: The secret never crosses the wire
    When the client answers it with valid credentials
    Then the reply is 200
    And no request carried the secret
    And no reply asks for the secret in clear text

  @DIG-11 @should
  Scenario: Authentication-Info proves the server knows the secret
    When the client answers it with valid credentials
    Then the reply is 200
    And the Authentication-Info proves that the server knows the secret
