@snapshots
Feature: Every update keeps the state before it as a snapshot
  A PUT of an entry, with If-Unmodified-Since set to the Last-Modified the client last read,
  answers 204 No Content without a body. Before the update takes effect the server copies
  the current state into a new snapshot at the resource's address plus /s<n>: the first
  update makes s1, the next s2, one more with each update. The resource's own address always
  serves the latest version.

  Background:
    Given a fresh entry resource

  @SNAP-2 @must
  Scenario: An update with If-Unmodified-Since answers 204 with no body
    Given the client has read the resource
    When the client PUTs the next version with If-Unmodified-Since set to the Last-Modified last read
    Then the reply is 204
    And the reply has no body

  @SNAP-3 @must
  Scenario Outline: Snapshots are numbered from s1, one more per update (<case>)
    Given the resource has been updated <updates> times
    Then snapshots s1 to s<updates> hold the versions before each update, in order
    And there is no snapshot s<beyond>

    Examples:
      | case          | updates | beyond |
      | one update    | 1       | 2      |
      | three updates | 3       | 4      |

  @SNAP-8 @must
  Scenario Outline: The resource serves the content of the last PUT (<case>)
    Given the resource has been updated <updates> times
    Then the resource serves the last version that was put

    Examples:
      | case          | updates |
      | one update    | 1       |
      | three updates | 3       |
