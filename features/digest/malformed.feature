Feature: Malformed credentials
  Credentials that break the rules of RFC 7616 are refused with 400 or 401 and never
  granted, even where the digest is right for what was sent. Each case below changes one
  thing in otherwise valid credentials.

  Background:
    Given a challenge from the protected resource

  @DIG-12 @should
  Scenario Outline: Malformed credentials are refused (<defect>)
    When the client answers it with credentials with "<defect>"
    Then the reply is one of 400 or 401

    Examples:
      | defect                     | what is sent                                                          |
      | no response                | the response directive is left out                                    |
      | no username                | the username directive is left out                                    |
      | no nonce                   | the nonce directive is left out                                       |
      | no uri                     | the uri directive is left out                                         |
      | no cnonce                  | cnonce is left out although qop is sent                               |
      | no nc                      | nc is left out although qop is sent                                   |
      | no qop                     | an RFC 2069 digest, without qop, nc and cnonce, although qop was offered |
      | nc of one digit            | nc=1 instead of eight hex digits, the digest computed with it         |
      | nc not hexadecimal         | nc=0000000g, the digest computed with it                              |
      | uri of another resource    | uri names the target with an extra query, the digest computed with it |
      | unknown qop                | qop=auth-conf, a value never offered                                  |
      | unknown algorithm          | algorithm=X-SXD-UNKNOWN                                               |
      | another realm              | a realm other than the challenge's, the digest computed with it       |
      | unterminated quoted string | the header ends inside the quoted response value                      |
