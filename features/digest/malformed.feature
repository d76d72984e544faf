@digest
Feature: Malformed credentials
  Credentials that break the rules of RFC 7616 are refused with 400 or 401 and never
  granted, even where the digest is right for what was sent. Each case first logs in with
  every algorithm the server offers, then sends the same request over a new challenge with
  one thing changed, in the form the server took (RFC 7616's formula or the spec's literal
  one). An nc of the wrong shape carries a count above any used so far, so that only its
  shape is wrong. Where the server's challenge offers no qop (RFC 2069), the cases about qop,
  nc and cnonce do not apply.

  Background:
    Given the client was granted access with each algorithm offered

  @DIG-12 @should
  Scenario Outline: Malformed credentials are refused: <defect> (RFC 7616 <requirement>)
    When the client answers a new challenge with <defect> but otherwise the same credentials
    Then each of these requests gets one of 400 or 401

    Examples:
      | defect                     | what is sent                                                          | requirement                                                            |
      | no response                | the response directive is left out                                    | §3.4: response is part of the credentials                              |
      | no username                | the username directive is left out                                    | §3.4: username is part of the credentials                              |
      | no nonce                   | the nonce directive is left out                                       | §3.4: nonce is part of the credentials                                 |
      | no uri                     | the uri directive is left out                                         | §3.4: uri is part of the credentials                                   |
      | no cnonce                  | cnonce is left out although qop is sent                               | §3.4: cnonce MUST be used by all implementations                       |
      | no nc                      | nc is left out although qop is sent                                   | §3.4: nc MUST be used by all implementations                           |
      | no qop                     | the RFC 2069 form, without qop, nc and cnonce, where qop was offered  | §3.4: qop MUST be one of the alternatives the server offered           |
      | nc of one digit            | nc=2, the digest computed with it                                     | §3.4: nc is the hexadecimal count; the spec writes it as eight digits  |
      | nc of six digits           | nc=000002, the digest computed with it                                | §3.4: nc is the hexadecimal count; the spec writes it as eight digits  |
      | nc of nine digits          | nc=000000002, the digest computed with it                             | §3.4: nc is the hexadecimal count; the spec writes it as eight digits  |
      | nc not hexadecimal         | nc=0000002g, the digest computed with it                              | §3.4: nc is the hexadecimal count; the spec writes it as eight digits  |
      | uri of another resource    | uri names the target with an extra query, the digest computed with it | §3.4.6: the server MUST assure uri names the request's resource        |
      | unknown qop                | qop=auth-conf, a value never offered                                  | §3.4: qop MUST be one of the alternatives the server offered           |
      | unknown algorithm          | algorithm=X-SXD-UNKNOWN over the accepted algorithm's digest          | §3.3: the server names the algorithms it takes (no keyword)            |
      | an algorithm not offered   | a registered algorithm the challenges did not offer, computed rightly | §3.3: the server names the algorithms it takes (no keyword)            |
      | another realm              | a realm other than the challenge's, the digest computed with it       | §3.4: realm is the one of the challenge (no keyword)                   |
      | unterminated quoted string | the header ends inside the quoted response value                      | §3.4 with RFC 9110 §5.6.4: a quoted-string ends with a quote           |
