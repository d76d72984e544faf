@export
Feature: The token in the export link guards the export
  The export link carries a security token in its path parameter t. A POST whose token is
  missing, changed, made up, or issued for another user exports nothing and does not get
  303 See Other. Which status it gets instead is not shown; HTTP suggests 403 Forbidden or
  404 Not Found, with an error body saying why.

  A refusal says something only when the same request with the token as served gets in: each
  case first sends that request, and where it is refused too the case is not run. That POST
  may use its link up, so the flawed one is built on a link read from the list afterwards,
  and right after the flawed POST is refused, sxd sends the same POST without the flaw: only
  where it still exports was the link good when the flaw was refused. Where it does not (the list
  hands out one single-use link per user, already spent), the case is not run. The flawed
  token differs from the served one by its value alone where it can: a forged token keeps the
  served token's length and alphabet, so a server cannot refuse it on its shape; a random
  token of another shape is tried as well. A change is made to the token as meant, its
  percent-escapes decoded, and escaped again as the link escapes it, so a flawed link is
  always a well-formed URI. Another user's token is tried on the import
  address of a second user the contacts server knows (export.otherUser); a user nobody knows
  may be refused for that alone, so without one that case is not run.

  Background:
    Given the target has a contacts server and a messaging server
    And the client has read the export link from the user's contact list

  @EXP-6 @must
  Scenario Outline: A POST with <token> does not export
    Given the same POST with the export link as served exports
    When the client sends POST with no body to the export link with <token>
    Then the link does not export: the reply is neither 303 nor a success

    Examples:
      | token                                      |
      | no token                                   |
      | an altered token                           |
      | a forged token of its shape                |
      | its token with the tail changed            |
      | a random token                             |
      | its token on another user's import address |

  @EXP-6 @should
  Scenario Outline: A POST with <token> is refused with 403 or 404 and an error body
    Given the same POST with the export link as served exports
    When the client sends POST with no body to the export link with <token>
    Then the reply is one of 403 or 404
    And the reply carries an XML error body with a message

    Examples:
      | token                           |
      | no token                        |
      | an altered token                |
      | a forged token of its shape     |
      | its token with the tail changed |
      | a random token                  |

  @EXP-6 @should
  Scenario: A user's token used on another user's import address is refused and imports nothing there
    Given the same POST with the export link as served exports
    When the client sends POST with no body to the export link with its token on another user's import address
    Then the reply is one of 403 or 404
    And the reply carries an XML error body with a message
    And the messaging server holds none of the list's contacts for that other user
