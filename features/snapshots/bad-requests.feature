@snapshots
Feature: Bad updates are refused and change nothing
  An update needs If-Unmodified-Since (HTTP answers 428 Precondition Required without it),
  the Atom entry media type (415 Unsupported Media Type otherwise) and a well-formed Atom
  entry as its body (400 Bad Request otherwise). A refused update changes neither the
  resource nor its snapshots.

  Each bad update differs from a good one by its defect alone, and a refusal counts only when
  the same update without the defect then gets in; where it does not, the case is not run.

  Background:
    Given a fresh entry resource
    And the client has read the resource

  @SNAP-12 @should
  Scenario Outline: An update with <problem> gets <status> and changes nothing
    When the client PUTs "<body>" with Content-Type "<content type>" and "<precondition>"
    Then the update is refused and changed nothing: the resource is as read before it, with no new snapshot
    And the same update without the defect gets in
    And the defective update got <status>

    Examples: a missing precondition
      | problem                | body             | content type                                   | precondition      | status |
      | no If-Unmodified-Since | the next version | application/atom+xml;type=entry;charset=UTF-8 | no precondition   | 428    |

    Examples: a wrong Content-Type
      | problem            | body             | content type     | precondition             | status |
      | a text/plain body  | the next version | text/plain       | the validators last read | 415    |
      | a JSON body        | the next version | application/json | the validators last read | 415    |

    Examples: a body that is not a well-formed Atom entry
      | problem                        | body                                | content type                                   | precondition             | status |
      | text that is not XML           | text that is not XML                | application/atom+xml;type=entry;charset=UTF-8 | the validators last read | 400    |
      | malformed XML                  | malformed XML                       | application/atom+xml;type=entry;charset=UTF-8 | the validators last read | 400    |
      | an element outside Atom        | an entry outside the Atom namespace | application/atom+xml;type=entry;charset=UTF-8 | the validators last read | 400    |
      | an Atom feed                   | an Atom feed instead of an entry    | application/atom+xml;type=entry;charset=UTF-8 | the validators last read | 400    |
      | an undeclared entity           | an entry with an undeclared entity  | application/atom+xml;type=entry;charset=UTF-8 | the validators last read | 400    |
      | an entry without an id         | an entry without an id              | application/atom+xml;type=entry;charset=UTF-8 | the validators last read | 400    |
      | an entry without a title       | an entry without a title            | application/atom+xml;type=entry;charset=UTF-8 | the validators last read | 400    |
