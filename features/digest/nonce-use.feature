@digest
Feature: Limited use of nonces
  A server may make its nonces usable once or a limited number of times, or take each nonce
  count once, keeping a log of those used; its nonces may also expire. The target description
  states which (digest.noncePolicy, digest.nonceLifetime); where it says nothing, these rows
  are not run until it does. A stated limit is a number of uses: the uses within it must get
  in, and the one beyond it must not. With qop, the same nonce and nonce count again is a
  replay whatever the limit; in the RFC 2069 form, without qop, there is no count, so only a
  use beyond the stated number is. A nonce that is no longer usable should be answered with a
  new challenge with stale=true, so that the client can retry without asking its user again:
  sxd uses a nonce up, or waits out a lifetime of up to a minute. The limit holds for every
  algorithm the server offers: sxd uses up a nonce of each, from a login of its own, before it
  sends the use beyond the limit on each.

  @DIG-9 @may
  Scenario: A replayed Authorization is refused
    Given the target limits how often a nonce may be used
    And the client used a nonce of each algorithm offered as often as the target allows
    When the client sends the last Authorization of each of those nonces again
    Then none of the replays gets access

  @DIG-9 @may
  Scenario: A used-up nonce is refused even with a higher nonce count
    Given the target limits the number of uses of a nonce
    And the client used a nonce of each algorithm offered as often as the target allows
    When the client answers each of those nonces again with the next nonce count
    Then none of the used-up nonces gets access

  @DIG-9 @may
  Scenario: A replayed Authorization without qop is refused
    Given the target limits how often a nonce may be used
    And the server granted access to credentials without qop, with each algorithm offered, as often as the target allows
    When the client sends the last Authorization of each of those nonces again
    Then none of the replays gets access

  @DIG-10 @should
  Scenario: A nonce that is no longer usable gets a new challenge marked stale
    Given a nonce of each algorithm offered that the target no longer takes
    When the client answers each of those nonces again with the next nonce count
    Then each of these requests gets 401 with a new Digest challenge
    And each of these challenges is marked stale
