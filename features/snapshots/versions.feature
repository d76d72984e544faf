@snapshots
Feature: Snapshots are whole versions of the same entry
  A revision of an Atom entry keeps its id (RFC 4287 §4.2.6), so the resource and every
  snapshot carry one and the same id. However a server stores snapshots (full copies or differences),
  a client always gets a full entry: author name, title, id and content of that version, also
  where an update left some of them as they were.

  Background:
    Given a fresh entry resource

  @SNAP-7 @must
  Scenario: The id is the same on the resource and on every snapshot
    Given the resource has been updated 3 times
    Then the resource and every snapshot carry one and the same id

  @SNAP-10 @must
  Scenario Outline: Every snapshot is served as the full entry it keeps (<case>)
    Given the resource has been updated 3 times, each update keeping <kept>
    Then each snapshot is a full entry of a version that was put

    Examples:
      | case                                  | kept                       |
      | every field changed                   | nothing                    |
      | the author and the content left alone | the author and the content |
      | the title left alone                  | the title                  |
