@export
Feature: A client starts an export by its link
  The task: export the contacts of the list at SXD_URL to the messaging server. The contact
  list links to the export with an href that carries a token; a POST to that href makes the
  messaging server fetch the contacts by itself and answer 303 with where they now are. The
  client only triggers the operation: it sends no contact data, and uses the link exactly as
  served, which sxd serves under another name of its host (localhost for 127.0.0.1), so that
  an address the client built shows.

  @CEXP-1 @must
  Scenario: The export is a POST to the link as served
    Given the client has done the task "export"
    Then its export starts with a POST to the export link's href, as served

  @CEXP-2 @must
  Scenario: The export POST carries no body
    Given the client has done the task "export"
    Then that POST carries no body

  @CEXP-3 @should
  Scenario: The client follows the 303 and does not POST again
    Given the client has done the task "export"
    Then it follows the 303 with GET on its Location and does not POST again
