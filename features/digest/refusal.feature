@digest
Feature: No access without the right digest
  A digest computed from a wrong secret, for a user the server does not know, or over a
  nonce the server never issued gets no access. Which status it gets is not fixed; RFC 7616
  §3.3 says 401 with a new challenge, so the client can try again, and stale=true only where
  the digest was right and the nonce had aged.

  Each case first logs in with every algorithm the server offers, then sends the same request
  over a new challenge with the one flaw: a refusal counts only where the request without the
  flaw got in. A forged nonce is tried both as random bytes and as one of the server's own
  nonces with its tail changed, so that a server checking only the shape or the head of its
  nonces is caught.

  Background:
    Given the client was granted access with each algorithm offered

  @DIG-6 @must
  Scenario Outline: A digest that does not match gets no access (<flaw>)
    When the client answers a new challenge with <flaw> but otherwise the same credentials
    Then none of these requests gets access

    Examples:
      | flaw                                          |
      | a wrong secret                                |
      | an unknown username                           |
      | a random nonce the server never issued        |
      | a nonce of the server's shape it never issued |

  @DIG-6 @should
  Scenario Outline: A digest that does not match gets 401 and a new challenge (<flaw>)
    When the client answers a new challenge with <flaw> but otherwise the same credentials
    Then each of these requests gets 401 with a new Digest challenge

    Examples:
      | flaw                                          |
      | a wrong secret                                |
      | an unknown username                           |
      | a random nonce the server never issued        |
      | a nonce of the server's shape it never issued |

  @DIG-6 @should
  Scenario Outline: A wrong digest is not called stale (<flaw>)
    When the client answers a new challenge with <flaw> but otherwise the same credentials
    Then none of these challenges is marked stale

    Examples:
      | flaw                |
      | a wrong secret      |
      | an unknown username |
