@snapshots
Feature: Creating a resource with PUT
  The spec does not show how a resource comes to exist. HTTP's way: a PUT with
  If-None-Match: * to an address where nothing is creates the resource and answers
  201 Created. A new resource has no snapshot yet; the first update makes s1.

  @SNAP-13 @should
  Scenario: PUT with If-None-Match: * to an unused address creates the resource, with no snapshot
    When the client PUTs an entry with If-None-Match: * to an unused address
    Then the reply is 201
    And the resource serves the last version that was put
    And there is no snapshot s1
