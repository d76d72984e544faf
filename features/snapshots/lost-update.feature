@snapshots
Feature: A stale update is refused
  If-Unmodified-Since carries the Last-Modified the client last read. When the resource has
  changed since, the update must not overwrite the newer version: HTTP answers 412
  Precondition Failed, and nothing changes, neither the resource nor its snapshots. For that,
  every update moves the resource's Last-Modified on.

  A refusal alone proves nothing: the same update sent again with the Last-Modified read
  after the other client's update must get in. Where it does not, the case is not run.

  HTTP dates count whole seconds, so the other client's update must come in a later second
  than the resource was made, and the scenario waits for the server's clock to get there.

  Background:
    Given a fresh entry resource
    And the client has read the resource
    And a second later, another client has updated the resource
    And the resource's Last-Modified is now later than the one the client read

  @SNAP-11 @should
  Scenario: An update with the Last-Modified read before another client's update gets 412 and changes nothing
    When the client PUTs the next version with If-Unmodified-Since set to the Last-Modified last read
    Then the update is refused and changed nothing: the resource is as read before it, with no new snapshot
    And the same update with the Last-Modified read now gets in
    And the stale update got 412
