@digest
Feature: Mutated credentials
  Credentials the server granted, changed in one directive, must not get in where the change
  makes them prove something else (another user, a nonce the server never issued, a response
  that does not match what was sent), and must be refused with 400 or 401 where the change
  only breaks their form (a directive left out, given twice, badly quoted or with a value it
  cannot have). Where the change is in what the digest covers, the response is recomputed as a
  client would compute it, so that only a server that skips the one check gets it wrong.

  A rule binds every algorithm the server offers: each case first logs in with each algorithm
  offered, and every mutant is built on the credentials of each that got in, answered again
  over a challenge of its own (the one the refusal of the mutant before carried, where no
  request has answered its nonce yet), so that its nonce is as fresh as the one that got in.
  The mutants are fixed (no random part): `sxd fuzz` draws many more from the same generator.

  Background:
    Given the client was granted access with each algorithm offered

  @DIG-6 @must
  Scenario: Credentials mutated to prove something else get no access
    When the client answers a new challenge with each of these mutants of the accepted credentials:
      | mutant                 | what is sent                                                         |
      | response:empty         | response=""                                                          |
      | response:cut           | the first half of the right response                                 |
      | response:overlong:32   | the right response followed by 32 zeros                              |
      | username:empty         | username="", the digest computed with it                             |
      | username:overlong:1024 | the username followed by 1024 more characters, the digest recomputed |
      | nonce:empty            | nonce="", the digest computed with it                                |
      | nonce:cut              | the first half of the issued nonce, the digest computed with it      |
      | nonce:overlong:64      | the issued nonce followed by 64 characters, the digest recomputed    |
      | response:other-method  | a digest computed for POST sent with a GET                           |
      | cnonce:stale           | another cnonce, the digest left as computed for the first            |
      | nc:stale               | the next nc, the digest left as computed for the first               |
    Then none of these mutants gets access

  @DIG-12 @should
  Scenario: Malformed mutants of granted credentials are refused with 400 or 401
    When the client answers a new challenge with each of these mutants of the accepted credentials:
      | mutant                 | what is sent                                                              |
      | realm:drop             | no realm directive                                                        |
      | realm:empty            | realm="", the digest computed with it                                     |
      | uri:empty              | uri="", the digest computed with it                                       |
      | uri:overlong:1024      | the uri with a 1024-character query added, the digest computed with it   |
      | nc:other               | nc=0, the digest computed with it                                         |
      | qop:empty              | qop="", the digest computed with it                                       |
      | algorithm:empty        | algorithm="" over the accepted algorithm's digest                         |
      | uri:double-before      | uri twice: another resource, then the request target                      |
      | username:double-before | username twice: an unknown user, then the user                            |
      | nonce:double-after     | nonce twice: the issued one, then one never issued                        |
      | response:double-before | response twice: a wrong digest, then the right one                        |
      | username:unclosed      | the username's closing quote left out, the directive written last         |
      | cnonce:inner-quote     | a bare quote in the middle of the quoted cnonce                           |
      | uri:no-opening-quote   | the uri without its opening quote                                         |
    Then each of these mutants is refused with 400 or 401
