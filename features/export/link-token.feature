Feature: The token in the export link guards the export
  The export link carries a security token in its path parameter t. A POST whose token is
  missing, changed, made up, or issued for another user exports nothing and does not get
  303 See Other. Which status it gets instead is not shown; HTTP suggests 403 Forbidden or
  404 Not Found, with an error body saying why.

  Background:
    Given the target has a contacts server and a messaging server
    And the client has read the export link from the user's contact list

  @EXP-6 @must
  Scenario Outline: A POST with <token> does not export
    When the client sends POST with no body to the export link with <token>
    Then the link does not export: the reply is neither 303 nor a success

    Examples:
      | token                                          |
      | no token                                       |
      | an altered token                               |
      | a forged token                                 |
      | its token on another user's import address     |

  @EXP-6 @should
  Scenario Outline: A POST with <token> is refused with 403 or 404 and an error body
    When the client sends POST with no body to the export link with <token>
    Then the reply is one of 403 or 404
    And the reply carries an XML error body with a message

    Examples:
      | token            |
      | no token         |
      | an altered token |
      | a forged token   |

  @EXP-6 @should
  Scenario: A user's token used on another user's import address is refused and imports nothing there
    When the client sends POST with no body to the export link with its token on another user's import address
    Then the reply is one of 403 or 404
    And the reply carries an XML error body with a message
    And the messaging server holds none of the list's contacts for that other user
