@export
Feature: A token made from what a served token shows does not export
  A token guards the export link only if nobody who has seen one can make another. Many
  tokens show what they hold: the user's name in base64, an expiry in decimal, a JWT whose
  claims anyone can read. sxd takes the served token apart (its parts between separators,
  each read as base64, base64url or hex where that gives text, and a JWT's header and claims)
  and forges the tokens an attacker tries first: the other user's name in place of this
  user's, a number or time one step either side, a JWT with alg none and no signature, with
  its signature dropped or with its claims changed, and the token with its last quarter cut
  off. None of them may export or get 303. Where the link percent-encodes its token, sxd takes
  apart the token as meant, its escapes decoded, and escapes each forgery again as the link
  escapes its token: every forged link is a well-formed URI.

  Each forgery is made from a token read after a POST that exported, and once it is refused
  the link it was made from must still export: that POST is the control of the next forgery.
  A forgery that names the other user (export.otherUser) is sent to that user's import
  address, and the messaging server's copy for that user is read before and after: a copy
  that appears or changes is an import, whatever the status. A token that shows nothing of a
  kind (a random value, a MAC) leaves that kind not applicable; the tail cut applies to every
  token. sxd tries at most four forgeries of one kind.

  Background:
    Given the target has a contacts server and a messaging server
    And the client has read the export link from the user's contact list

  @EXP-6 @must
  Scenario Outline: A token forged as <forgery> does not export
    Given the same POST with the export link as served exports
    When the client POSTs tokens forged from a fresh export link: <forgery>
    Then no forged token exported: each was neither answered 303 nor a success, nor imported anything

    Examples:
      | forgery                                           |
      | the user's name in it changed to the other user's |
      | a number or time in it one step up                |
      | a number or time in it one step down              |
      | a JWT with alg none and no signature              |
      | a JWT with its signature dropped                  |
      | a JWT with its subject changed to the other user  |
      | a JWT with a later expiry                         |
      | the token with its tail cut                       |
