@snapshots
Feature: Updates that race lose nothing
  Two clients that read the same version and each send an update must not both get in: the
  one that came second would overwrite a version its client never saw, and that update would
  be lost without a word. Of the updates sent with the If-Unmodified-Since of one read, at most
  one succeeds; the others get 412 Precondition Failed and change nothing. Every update that
  succeeded kept the version before it as exactly one snapshot, numbered without a gap or a
  repeat, so each version put is somewhere in the chain.

  HTTP dates count whole seconds. A server whose Last-Modified is the second an update came in
  cannot tell that version from the next one made in the same second: it moves Last-Modified
  on by at least a second per version, holds an update until its clock has passed the date of
  the version before, or refuses. So the updates here leave together, right after the read
  whose date they carry: all before any reply where they go at once, each as soon as the reply
  to the one before is in where they go one after the other. When the server answers them is
  its own business: one that holds them and dates each version a second later has answered the
  race. Where the replies' Date shows that no two updates with one date came within that
  date's second (the version read was made in an earlier second, or the second turned), the
  race goes once more on a new read: sxd waits for the server's Date to turn, updates the
  resource then, and races at once, early in that second. Where sxd held a request of the race
  back itself (to keep its pace: --rate, or the pace it keeps after a gateway's refusals; or to
  send it again after a refusal), the updates did not leave together and the case is not run. Updates sent at once must be taken one at a time too: a
  server that checks the precondition and writes a little later lets them all in.

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
    And where sxd held back a request of the race, so the updates did not leave together, the case is not run

    Examples:
      | count | how                 | reads             |
      | 2     | one after the other | one read          |
      | 8     | all at once         | one read          |
      | 8     | all at once         | a read of its own |
