@export
Feature: The contacts server offers a contact list with an export link
  The contacts server serves a user's contacts at /user/<user>/contacts as an XML document
  whose root element contacts declares the Atom namespace. Beside the contacts it carries
  an atom:link to itself and an atom:link whose relation is a URI naming the export to the
  messaging server: its href is the user's import address on the messaging server, with a
  security token in the path parameter t, and its title is text for a human.

  Background:
    Given the target has a contacts server and a messaging server

  @EXP-1 @must
  Scenario: The contact list is an XML document of contacts in the Atom namespace
    When the client fetches the user's contact list from the contacts server
    Then the reply is 200
    And the reply's Content-Type is "application/xml;charset=UTF-8"
    And the reply is a contacts document that declares the Atom namespace
    And the contact list holds contact elements

  @EXP-2 @must
  Scenario: The contact list links to itself with an absolute URI
    When the client fetches the user's contact list from the contacts server
    Then the reply is 200
    And the contact list links rel="self" to its own absolute URI

  @EXP-3 @must
  Scenario: The export link names its relation by URI and points at the user's import address on the messaging server
    When the client fetches the user's contact list from the contacts server
    Then the reply is 200
    And the contact list has an export link whose rel is a URI
    And the export link's href is an absolute URI on the messaging server with the path "/user/<user>/import;t=<token>"
    And the export link has a human-readable title
