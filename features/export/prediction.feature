@export
Feature: Tokens no one can predict
  The token in the export link guards the export. Where the contact list hands out a new token
  on each read, nobody may be able to compute the next one from those it handed out before:
  the tokens must carry at least 64 bits that no observer can derive. (A made-up token that
  gets in is EXP-6's failure, however it was made; this row is about guessing the next one.)

  sxd reads the user's contact list as often as the sample needs (--security-samples, 100 by
  default), a few reads at a time, and judges the tokens of the export links, as meant (the
  bytes their percent-escapes stand for, not the escapes as written), as it judges
  nonces (DIG-13): taken apart, tried as counters, clocks near the reply's Date and hashes of
  either, and each bit position left over tested on its own as Burp's sequencer does. A list
  that hands out the same token on every read is not what this row is about; one whose token
  changes now and then fails only where the tokens that differ show a counter or a clock and
  nothing more. Passing says these tries found no way to predict the tokens, not that none
  exists.

  @EXP-10 @should
  Scenario: No one can compute the next token from the ones before
    Given the target has a contacts server and a messaging server
    When the client reads the user's contact list as often as the sample needs
    Then the export links' tokens cannot be predicted
