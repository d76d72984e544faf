Feature: A stale update is refused
  If-Unmodified-Since carries the Last-Modified the client last read. When the resource has
  changed since, the update must not overwrite the newer version: HTTP answers 412
  Precondition Failed, and nothing changes, neither the resource nor its snapshots.

  Background:
    Given a fresh entry resource
    And the client has read the resource
    And the resource has been updated 1 time

  @SNAP-11 @should
  Scenario: An update with an If-Unmodified-Since from before the last update changes nothing
    When the client PUTs the next version with an If-Unmodified-Since from before the last update
    Then the reply is not a success
    And nothing changed: the resource serves the last version that was put, with no new snapshot

  @SNAP-11 @should
  Scenario: An update with an If-Unmodified-Since from before the last update gets 412
    When the client PUTs the next version with an If-Unmodified-Since from before the last update
    Then the reply is 412
