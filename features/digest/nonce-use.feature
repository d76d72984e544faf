Feature: Limited use of nonces
  A server may make its nonces usable once or a limited number of times, keeping a log of
  those used. Where the target description states such a limit (digest.noncePolicy), an Authorization sent
  again once the limit is reached is refused, and the refusal should carry a new challenge
  with stale=true, so that the client can retry without asking its user again.

  Background:
    Given the target limits how often a nonce may be used
    And a challenge from the protected resource
    And the client uses the nonce as often as the target allows

  @DIG-9 @may
  Scenario: A replayed Authorization is refused once the nonce is used up
    When the client sends the same Authorization again
    Then the reply is not a success

  @DIG-9 @may
  Scenario: A used-up nonce is refused even with a higher nonce count
    When the client answers the same challenge again with the next nonce count
    Then the reply is not a success

  @DIG-10 @should
  Scenario: A used-up nonce is answered with a new challenge marked stale
    When the client answers the same challenge again with the next nonce count
    Then the reply is 401
    And the reply carries a new Digest challenge marked stale
