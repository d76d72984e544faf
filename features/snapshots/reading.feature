@snapshots
Feature: Reading a snapshot-enabled resource
  A GET on the resource's address answers 200 with the Atom entry type
  (application/atom+xml;type=entry;charset=UTF-8), a Last-Modified date, and an entry with
  author name, title, id and content, which links to itself with an absolute address.
  HTTP adds that a server never dates a change later than the reply itself: Last-Modified
  is no later than the reply's Date (RFC 9110 §8.8.2.1). That holds on every read, just after
  an update too, where a server whose dates count whole seconds may date a new version a second
  after the one before, ahead of its clock: every reply of the run to a GET of a resource or a
  snapshot counts, the other scenarios' too.

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

  @SNAP-1 @should
  Scenario: Last-Modified is no later than the reply's Date, also just after updates
    Given the resource has been updated 3 times
    When the client GETs each snapshot, s1 to s3
    And the client GETs the resource
    Then every reply to a GET of a resource or a snapshot, in the whole run, has a Last-Modified no later than its Date
