@export
Feature: Following the export link makes the messaging server fetch the contacts itself
  The client only triggers the export: it sends POST with no body to the export link. The
  messaging server then fetches the contacts from the contacts server by itself and answers
  303 See Other with the export result, {messaging_url}/user/<user>, in Location. The
  client carries no duty of concurrency control or atomicity: sending the link again, or
  several times at once, still leaves one consistent copy of the contacts. A contact is there
  when its whole element is: its fields with their namespaces, attributes and text, in their
  order. What XML holds insignificant does not count: namespace prefixes, the order of
  attributes, indentation. Two contacts that differ only in an attribute are two contacts.

  How a client sees what the messaging server holds is the server's choice. The suite reads
  the export result where the target description says (export.result): by default with GET
  on the 303's Location, as HTTP suggests, or at a path the description names. A target that
  states its result cannot be read leaves the check not run: a 303 alone proves nothing.

  Where sxd plays the contacts server itself (sxd test --peer contacts), what it received is
  evidence too: the messaging server's backend request for the user, with the link's token
  where the target description's export.backend presents it.

  Background:
    Given the target has a contacts server and a messaging server
    And the client has read the export link from the user's contact list

  @EXP-4 @must
  Scenario: A POST to the export link is answered 303 See Other to the user's export result
    When the client sends POST with no body to the export link
    Then the reply is 303
    And the reply's Location is the user's export result on the messaging server
    And the reply's Content-Type is "application/xml;charset=UTF-8"

  @EXP-5 @must
  Scenario: The client triggers the export without sending any contact data, and the contacts arrive
    When the client sends POST with no body to the export link
    Then the export is accepted without any contact data from the client
    And the messaging server holds every contact of the list, read where the target description says
    And where sxd plays the contacts server, it received the messaging server's backend request for the user with the link's token

  @EXP-5 @should
  Scenario: Afterwards the export result shows every contact the contacts server served
    When the client sends POST with no body to the export link
    Then the messaging server's export result lists every contact of the list

  @EXP-7 @should
  Scenario: Repeated and concurrent POSTs of the link leave one copy of each contact
    When the client sends POST to the export link twice in a row, then 3 times at once
    Then the messaging server's export result lists each contact of the list exactly once
