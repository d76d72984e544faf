@history
Feature: A client walks the versions of an entry
  The task: print the title of every version of the entry at SXD_URL, newest first, one per
  line. sxd prepares an entry with three versions (the current one and snapshots s1 and s2).
  A version is reached by the links the server serves, absolute hrefs: previous from the
  current resource and from each snapshot, next back up. The client does not build addresses
  itself, and stops where the chain stops.

  @CSNAP-5 @should
  Scenario: The client follows the previous and next links as served
    Given the client has done the task "history"
    Then every version it read was reached by a previous or next link as served
