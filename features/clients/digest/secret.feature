Feature: A client keeps the secret and the count
  The point of Digest is that the secret never travels: the client proves it knows it. It
  counts its requests per nonce in nc, so the server can tell a replay from a new request,
  and writes the directives in the forms RFC 7616 §3.4 gives them.

  @CDIG-3 @must
  Scenario Outline: The secret is in no request the client sends
    Neither Basic credentials, nor the password in a header, the address or the body, before
    the challenge or after it.

    Given the client has done the task "<task>"
    Then the secret is in no request it sent

    @digest-get
    Examples: reading the resource
      | task       |
      | digest-get |

    @digest-post
    Examples: sending it a body
      | task        |
      | digest-post |

  @CDIG-5 @must
  Scenario Outline: nc counts the uses of a nonce
    00000001 on a nonce's first use, one more on each reuse. A cnonce in every request, which
    may stay the same while nc grows.

    Given the client has done the task "<task>"
    Then nc counts the uses of each nonce from 00000001

    @digest-get
    Examples: reading the resource
      | task       |
      | digest-get |

    @digest-post
    Examples: sending it a body
      | task        |
      | digest-post |

  @CDIG-9 @should
  Scenario Outline: The directives are written as RFC 7616 §3.4 writes them
    username, realm, nonce, uri, response, cnonce and opaque as quoted strings; algorithm, qop
    and nc as bare tokens.

    Given the client has done the task "<task>"
    Then the directives are quoted as RFC 7616 §3.4 writes them

    @digest-get
    Examples: reading the resource
      | task       |
      | digest-get |

    @digest-post
    Examples: sending it a body
      | task        |
      | digest-post |
