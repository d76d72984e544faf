Feature: Updates that race lose nothing
  Two clients that read the same version and each send an update must not both get in: the
  one that came second would overwrite a version its client never saw, and that update would
  be lost without a word. Of the updates sent with the If-Unmodified-Since of one read, at most
  one succeeds; the others get 412 Precondition Failed and change nothing. Every update that
  succeeded kept the version before it as exactly one snapshot, numbered without a gap or a
  repeat, so each version put is somewhere in the chain.

  HTTP dates count whole seconds. A server whose Last-Modified is the second an update came in
  cannot tell that version from the next one made in the same second: it moves Last-Modified
  on by at least a second per version, or refuses. So the updates here go out with no wait,
  within the second of the date they carry; where the replies' Date shows that no two updates
  with one date came within its second, the round is sent again on a new read, five rounds at
  most: a round after a miss waits for the server's second to turn, updates the resource then,
  and goes at once, within that second. Where no round came within a second (a slow pace
  spreads the updates over seconds), the case is not run. Updates sent at once must be taken
  one at a time too: a server that checks the precondition and writes a little later lets them
  all in.

  A refusal alone proves nothing: where no update got in, the same update sent again with the
  Last-Modified read then must get in; where it does not, the case is not run.

  The spec asks only that an update carry If-Unmodified-Since; this holds the header to what it
  is for, at SHOULD.

  Background:
    Given a fresh entry resource

  @SNAP-15 @should
  Scenario Outline: Of <count> updates sent <how> with the date of <reads>, at most one per date gets in and none is lost
    When <count> clients PUT a version each, <how>, with the Last-Modified of <reads> as If-Unmodified-Since
    Then where no update got in, the same update with the Last-Modified read now gets in
    And of the updates sent with one date, at most one got in, and the others got 412
    And every update that got in left one snapshot, numbered without a gap or a repeat, and a refused one left nothing
    And where no two updates with one date came within that date's second, the case is not run

    Examples:
      | count | how                 | reads             |
      | 2     | one after the other | one read          |
      | 8     | all at once         | one read          |
      | 8     | all at once         | a read of its own |
