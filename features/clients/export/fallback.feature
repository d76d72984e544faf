@export
Feature: A client may carry the contacts over itself where the export link cannot work
  The export by link needs the two servers to coordinate. Where they cannot, the contact
  list has no export link, or the POST to it fails with a 5xx; a client may then fall back:
  download the whole list from /user/<user>/contacts and upload every contact to the
  messaging server itself, once. The spec shows neither the path nor the payload of that
  upload; sxd's messaging server takes a contact list document (any XML media type) by POST
  to /user/<user>/contacts, and sxd judges what the client sent whatever its form, by the
  contacts in it compared field by field with the list it served.

  The client description states whether the client has the fallback (export.fallback). Where
  it says so, sxd runs the export task again twice: once with the contact list served without
  its export link, once with every POST to the export link answered 503. Each time the client
  must download the list and upload each of its contacts once: none, part, or a contact twice
  fails. The same task without those conditions must have succeeded first. Where the
  description says the client has no fallback, the row does not apply; where it is silent,
  the row is not run.

  @CEXP-4 @may
  Scenario: Without a working export link, the client uploads every contact once
    Given the client has done the task "export"
    And the client description says the client has the fallback
    And sxd ran it again with the contact list served without its export link, and with the export POST answered 503
    Then each time it downloaded the list and uploaded every contact to the messaging server once
