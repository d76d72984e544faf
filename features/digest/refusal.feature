Feature: No access without the right digest
  A digest computed from a wrong secret, for a user the server does not know, or over a
  nonce the server never issued gets no access. Which status it gets is not fixed; RFC 7616
  §3.3 says 401 with a new challenge, so the client can try again.

  Background:
    Given a challenge from the protected resource

  @DIG-6 @must
  Scenario Outline: A digest that does not match gets no access (<flaw>)
    When the client answers it with <flaw> but otherwise valid credentials
    Then the reply is not a success

    Examples:
      | flaw                            |
      | a wrong secret                  |
      | an unknown username             |
      | a nonce the server never issued |

  @DIG-6 @should
  Scenario Outline: A digest that does not match gets 401 and a new challenge (<flaw>)
    When the client answers it with <flaw> but otherwise valid credentials
    Then the reply is 401
    And the reply carries a new Digest challenge

    Examples:
      | flaw                            |
      | a wrong secret                  |
      | an unknown username             |
      | a nonce the server never issued |
