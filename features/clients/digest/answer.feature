Feature: A client answers a Digest challenge
  Asked for a protected resource without credentials, sxd's server answers 401 with one
  challenge per algorithm (SHA-256, then MD5), each naming the realm, a nonce of its own, an
  opaque and qop "auth, auth-int". The client sends the request again with Authorization:
  Digest, taking the realm, nonce and algorithm from the one challenge it answers, and computes
  the response from the user's secret (RFC 7616 §3.4.1). sxd runs the client's task with the
  user and the address in its environment, and again under the conditions it stages (another
  order of algorithms, qop auth-int alone, a refusal): every answer the client sent in any of
  these runs is judged. Not answering an offer is not a wrong answer (which algorithms a client
  takes is CDIG-7's concern), but a client that answers no challenge at all passes nothing.

  @CDIG-1 @must
  Scenario Outline: The answer carries every directive, as challenged
    Given the client has done the task "<task>"
    Then every Digest answer it sent carries the directives as challenged

    @digest-get
    Examples: reading the resource
      | task       |
      | digest-get |

    @digest-post
    Examples: sending it a body
      | task        |
      | digest-post |

  @CDIG-2 @must
  Scenario Outline: The response is the digest of the user's secret
    Given the client has done the task "<task>"
    Then each response is the digest of the user's secret

    @digest-get
    Examples: reading the resource
      | task       |
      | digest-get |

    @digest-post
    Examples: sending it a body
      | task        |
      | digest-post |

  @CDIG-4 @must @digest-post
  Scenario: With qop=auth-int the digest covers the body sent
    sxd runs the task again with qop auth-int alone offered (on an offer of algorithms the
    client answered), so that a client which prefers auth shows what it does when auth-int is
    all there is; its answers there are judged with the others. A client that never answers with
    qop=auth-int is not concerned: the row is not applicable to it.

    Given the client has done the task "digest-post"
    Then an auth-int answer hashes the body it sent
