Feature: Snapshots are whole versions of the same entry
  A revision of an Atom entry keeps its id, so the resource and every snapshot carry the id
  the entry was created with. However a server stores snapshots (full copies or differences),
  a client always gets a full entry: author name, title, id and content of that version.

  Background:
    Given a fresh entry resource
    And the resource has been updated 3 times

  @SNAP-7 @must
  Scenario: The id is the same on the resource and on every snapshot
    Then the resource and every snapshot carry the id the entry was created with

  @SNAP-10 @must
  Scenario: Every snapshot is served as the full entry it keeps
    Then each snapshot is a full entry of the version it keeps
