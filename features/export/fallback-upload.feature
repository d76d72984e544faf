@export
Feature: Fallback: the client carries the contacts over itself
  Where the servers cannot coordinate, the client downloads all contacts from the contacts
  server's /user/<user>/contacts and sends them to the messaging server itself. The spec does
  not show the upload's path and payload: the target description names the method, the path
  and the content type (application/xml;charset=UTF-8 unless it says otherwise), and the
  suite sends the contact list exactly as the contacts server served it, under a fresh user
  name so that no export made elsewhere can put the contacts where it looks. A contact has
  arrived when its whole element arrived: fields, namespaces, attributes and text, whatever
  prefixes, attribute order or indentation it now has.
  A description that does not name the upload leaves the row not run; one that states
  export.upload false says the server takes none, and the row does not apply.

  Background:
    Given the target has a contacts server and a messaging server
    And the target takes contact uploads

  @EXP-9 @may
  Scenario: Contacts downloaded by the client and uploaded to the messaging server arrive there
    Given the client has read the user's contact list
    When the client uploads the contact list to the messaging server itself, for a fresh user
    Then the upload is accepted
    And the messaging server's export result for that user lists every contact of the list
