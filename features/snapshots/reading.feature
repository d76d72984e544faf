Feature: Reading a snapshot-enabled resource
  A GET on the resource's address answers 200 with the Atom entry type
  (application/atom+xml;type=entry;charset=UTF-8), a Last-Modified date, and an entry with
  author name, title, id and content, which links to itself with an absolute address.

  Background:
    Given a fresh entry resource

  @SNAP-1 @must
  Scenario: The current resource is served as an Atom entry with a date and a self link
    When the client GETs the resource
    Then the reply is 200
    And the reply carries a Last-Modified HTTP date
    And the reply's Content-Type is "application/atom+xml;type=entry;charset=UTF-8"
    And the reply is an Atom entry with author name, title, id and content
    And the entry's "self" link is absolute and points to the resource
