@export
Feature: A messaging server that cannot reach the contacts server reports it
  The export depends on the messaging server's own request to the contacts server. When that
  request fails, the messaging server answers with a server error and an error body instead
  of 303 See Other, and keeps nothing half imported: what it held for the user before, it
  still holds, no more and no less.

  This needs a messaging server whose contacts server is down. The bundled reference starts
  one beside itself, which gets a copy of the list by the fallback upload first. For another target, the description names the commands that stop and
  start its contacts server (export.outage); the suite exports the list once, so that the
  messaging server holds a copy to keep, stops the contacts server, starts it again after the
  scenario whatever happened, and waits until it answers. No other scenario runs meanwhile.
  Without those commands the scenario is not run.

  Background:
    Given the target has a contacts server and a messaging server
    And the client has read the export link from the user's contact list
    And a messaging server whose contacts server cannot be reached

  @EXP-8 @should @alone
  Scenario: An export whose contacts server is unreachable fails with a 5xx error body and imports nothing
    When the client sends POST with no body to the export link's path on that messaging server
    Then the reply is a server error, not 303 See Other
    And the reply carries an XML error body with a message
    And that messaging server holds what it held before: nothing half imported
