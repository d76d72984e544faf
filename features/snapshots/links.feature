Feature: Snapshots are linked to each other and to the resource
  The current resource links with rel="previous" to the newest snapshot. Each snapshot links
  to itself (self), to the snapshot before it (previous) and to what follows it (next): the
  next snapshot, or the resource itself for the newest one. Every href is an absolute URI.
  Following previous from the resource walks back through every snapshot down to s1, and
  following next walks forward again, each step reaching the snapshot that keeps the next
  older (or newer) version. Whether s1 carries a previous link is left open, but previous names
  the snapshot immediately before: a previous link from s1 back to itself, to a later snapshot
  or to the resource is a loop, and a client walking back would never stop.

  Background:
    Given a fresh entry resource

  @SNAP-4 @must
  Scenario: The resource links to its newest snapshot
    Given the resource has been updated 2 times
    When the client GETs the resource
    Then the reply is 200
    And the entry's "previous" link is absolute and leads to the version before the last update

  @SNAP-5 @must
  Scenario: The oldest snapshot links to itself and to the next snapshot
    Given the resource has been updated 2 times
    When the client GETs snapshot s1
    Then the reply is 200
    And the reply's Content-Type is "application/atom+xml;type=entry;charset=UTF-8"
    And the entry's "self" link is absolute and points to snapshot s1
    And the entry's "next" link is absolute and points to snapshot s2
    And the oldest snapshot's previous link, if it has one, leads back to none of the later versions

  @SNAP-5 @must
  Scenario: The newest snapshot links to itself, the snapshot before it and the resource
    Given the resource has been updated 2 times
    When the client GETs snapshot s2
    Then the reply is 200
    And the reply's Content-Type is "application/atom+xml;type=entry;charset=UTF-8"
    And the entry's "self" link is absolute and points to snapshot s2
    And the entry's "previous" link is absolute and points to snapshot s1
    And the entry's "next" link is absolute and points to the resource

  @SNAP-6 @must
  Scenario: previous walks from the resource down to s1, and next walks back up
    Given the resource has been updated 4 times
    Then following "previous" links from the resource visits, link by link:
      | s4 | s3 | s2 | s1 |
    And the walk back ends at s1: its previous link, if it has one, leads back to none of the versions walked
    And following "next" links back from there visits, link by link:
      | s2 | s3 | s4 | the resource |
