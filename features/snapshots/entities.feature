@snapshots
Feature: An entry that declares entities is neither expanded nor resolved
  An Atom entry needs no document type. A server whose XML parser processes one can be made
  to put a file of its own into an entry (an external entity naming file:///etc/passwd), to
  send requests wherever the body says (one naming an address), or to run out of memory on a
  few hundred bytes (entities that expand into ten copies of each other, level after level).
  An update whose body declares entities is refused with 400, as a body this server does not
  take, or stored with no entity expanded; the server reads no file and asks no address the
  body names, and answers about as fast as it answers the same update without the DOCTYPE.

  Each case first makes the plain update, then reads the resource again and sends the next
  version with a DOCTYPE added and its title a reference to the declared entity, so the
  DOCTYPE is the only thing that differs. It fails where a reply shows the entity's text
  (outside a DOCTYPE stored as sent), a line of /etc/passwd, where a connection comes to the
  address of sxd's that the body names (a listener sxd opens for the case, on the address
  from which it reaches the target), or where the reply takes more than ten times as long as
  the plain update's and over two seconds. The recursive entity would expand to about two
  megabytes; sxd never expands it, and reads every reply within its usual bound.

  Background:
    Given a fresh entry resource

  @SNAP-14 @should
  Scenario Outline: An update declaring <entity> is refused with 400 or stored unexpanded
    Given the same update without a document type got in
    When the client PUTs the next version declaring <entity>, its title a reference to it
    Then the update is refused with 400 and changes nothing, or stored with no entity expanded
    And no request came to an address the entry named, and the reply came about as fast as the plain update's

    Examples:
      | entity                                             |
      | an internal entity                                 |
      | an entity expanded recursively, five levels of ten |
      | an external entity naming the file /etc/passwd     |
      | an external entity naming an address of sxd's      |
