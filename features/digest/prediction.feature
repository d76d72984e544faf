@digest
Feature: Nonces no one can predict
  A nonce is there so that an answer to one challenge cannot be used for another. Whoever can
  compute the nonces a server will hand out can have a client answer one before the server
  issues it, and replay that answer once it does. A nonce may carry a time stamp (RFC 7616
  §3.3 suggests one, beside a hash with a secret), but a counter, a clock, or a hash of either
  without a secret can be computed by anyone who saw a few.

  sxd asks for a sample of challenges (--security-samples, 100 by default), a few at a time,
  and judges their nonces: it takes each apart (separators, hex, base64, a time stamp near
  the reply's Date), tries to compute them (a counter with any step, a clock in seconds,
  milliseconds or microseconds, MD5, SHA-1 or SHA-256 of either), and tests each bit position
  left over on its own, as Burp's sequencer does. No nonce may repeat, and at least 64 bit
  positions no guess explains must pass, wherever in the nonce they lie. Passing says these
  tries found no way to predict the nonces, not that none exists.

  @DIG-13 @should @no-credentials
  Scenario: No one can compute the next nonce from the ones before
    When the client collects the nonces of a sample of challenges
    Then no nonce of the sample can be predicted
