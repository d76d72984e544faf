@snapshots
Feature: DELETE removes the resource with all its snapshots
  A DELETE on the resource's address removes the resource and every snapshot of it; none of
  them is served afterwards. The status of the DELETE and what a later GET answers are left
  open; HTTP suggests 200 or 204 for the DELETE and 404 or 410 afterwards.

  Background:
    Given a fresh entry resource that the client may delete
    And the resource has been updated 2 times

  @SNAP-9 @must
  Scenario: After DELETE neither the resource nor its snapshots are served
    When the client DELETEs the resource
    Then neither the resource nor any of its snapshots is served any more

  @SNAP-9 @should
  Scenario: DELETE answers 200 or 204, and afterwards every address answers 404 or 410
    When the client DELETEs the resource
    Then the reply is one of 200 or 204
    And the resource and each of its snapshots answer 404 or 410
