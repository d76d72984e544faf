@digest
Feature: Integrity of the request body with auth-int
  Where the challenge offers qop=auth-int, the digest covers the request body as well: the
  body it was computed over is accepted, a body changed after the digest was computed is
  refused. Servers that offer only auth are not judged on this. A server that offers auth-int
  but takes only the spec's literal formula, which leaves the body out, does not protect the
  body: the changed body gets in, and the row fails. Both cases are made with each algorithm
  offered that got in without auth-int, each changed body on a challenge of its own.

  Background:
    Given the client has logged in with each algorithm offered
    And the challenge offers qop auth-int

  @DIG-8 @must
  Scenario: The body the digest covers is accepted
    When the client answers a challenge of each algorithm offered with qop auth-int for the body "<sxd-check>original</sxd-check>"
    Then each of them is granted access

  @DIG-8 @must
  Scenario: A body changed after the digest was computed is refused
    Given the client was granted access with qop auth-int for the body "<sxd-check>original</sxd-check>", with each algorithm offered
    When the client answers a new challenge with the same credentials and digest but sends the body "<sxd-check>changed</sxd-check>"
    Then the changed body gets no access
