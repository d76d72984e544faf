@update
Feature: A client updates an entry
  The task: set the title of the entry at SXD_URL to SXD_TITLE. The entry is
  snapshot-enabled: every update keeps the version before it. An update is a PUT of the whole
  Atom entry, conditional on the version the client read, so that it never overwrites a change
  it has not seen. sxd prepares a fresh entry for each run and judges every PUT the client
  sent to it against the client's latest read before that PUT.

  @CSNAP-1 @must
  Scenario: An update is a PUT of an Atom entry
    Given the client has done the task "update"
    Then every PUT it sent is an Atom entry with author, title, id and content, typed as one

  @CSNAP-2 @must
  Scenario: An update is conditional on the version read
    Given the client has done the task "update"
    Then every PUT carries If-Unmodified-Since equal to the Last-Modified it last read

  @CSNAP-3 @must
  Scenario: An update keeps the entry id
    Given the client has done the task "update"
    Then every PUT keeps the entry id it read

  @CSNAP-4 @should
  Scenario: After a 412 the client reads the entry again before it puts anything
    The same task, run again on a fresh entry; the PUT that sxd refuses is the control: what
    the client does after a 412 does not depend on whether its update would have succeeded. A
    client that stops at the 412 overwrites nothing and passes.

    Given the client has done the task "update"
    And sxd answered its first PUT with 412, as if the entry had changed since its read
    Then it reads the entry again before any other PUT
