@snapshots
Feature: Snapshots are linked to each other and to the resource
  The current resource links with rel="previous" to the newest snapshot. Each snapshot links
  to itself (self), to the snapshot before it (previous) and to what follows it (next): the
  next snapshot, or the resource itself for the newest one. Every href is an absolute URI.
  Following previous from the resource walks back through every snapshot down to s1, and
  following next walks forward again, each link to the address of the next older (or newer)
  snapshot: s<n> after n updates. Links are judged by their addresses; what a snapshot keeps is
  another row's (SNAP-3). Whether s1 carries a previous link is left open, but previous names
  the snapshot immediately before: a previous link from s1 back to itself, to a later snapshot
  or to the resource is a loop, and a client walking back would never stop.

  Background:
    Given a fresh entry resource

  @SNAP-4 @must
  Scenario: The resource links to its newest snapshot
    Given the resource has been updated 2 times
    When the client GETs the resource
    Then the reply is 200
    And the entry's "previous" link is absolute and points to snapshot s2

  @SNAP-5 @must
  Scenario: Every snapshot links to itself, to the snapshot before it and to what follows it
    Given the resource has been updated 3 times
    When the client GETs each snapshot, s1 to s3
    Then each reply is 200 with Content-Type "application/atom+xml;type=entry;charset=UTF-8"
    And each snapshot's links are absolute and point to:
      | snapshot | self | previous | next         |
      | s1       | s1   |          | s2           |
      | s2       | s2   | s1       | s3           |
      | s3       | s3   | s2       | the resource |
    And the oldest snapshot's previous link, if it has one, leads back to none of the later versions

  @SNAP-6 @must
  Scenario: previous walks from the resource down to s1, and next walks back up
    Given the resource has been updated 4 times
    Then following "previous" links from the resource visits, link by link:
      | s4 | s3 | s2 | s1 |
    And the walk back ends at s1: its previous link, if it has one, leads back to none of the versions walked
    And following "next" links back from there visits, link by link:
      | s2 | s3 | s4 | the resource |
