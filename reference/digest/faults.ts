/**
 * Faulty modes of the digest protection, each a mistake real servers make. The rows are
 * those a conformance run against the reference (nonce policy stated) must report failed.
 * `digestPolicy` (policy.ts) reads the active modes once into the decisions the guard and the
 * route take, so they ask what to do, never which mode is on.
 */
import type { FaultInfo } from "../fault-info.ts";

export const digestFaults = {
  "dig-algorithm-quoted-lower": {
    breaks: ["DIG-14"],
    description:
      'the challenge writes its algorithm quoted and in lower case (algorithm="sha-256"), as some servers do',
  },
  "dig-challenge-403": {
    // DIG-2 and DIG-3 are about the 401 reply, which this server never sends.
    breaks: ["DIG-1", "DIG-2", "DIG-3", "DIG-14"],
    description: "answers a request without credentials with 403 instead of 401 (challenge and body still sent)",
  },
  "dig-no-error-body": {
    breaks: ["DIG-2"],
    description: "sends the 401 challenge with an empty body",
  },
  "dig-repeated-nonce": {
    breaks: ["DIG-3", "DIG-6"],
    description: "answers a wrong digest with a challenge that repeats the nonce the client sent, not a new one",
  },
  "dig-nonce-until-used": {
    // DIG-13 too: the next challenge's nonce is the one just seen.
    breaks: ["DIG-3", "DIG-6", "DIG-13"],
    description: "hands out the same nonce in every challenge until somebody gets in with it",
  },
  "dig-plain-text-resource": {
    breaks: ["DIG-4"],
    description: "grants access but serves the protected resource as text/plain, not application/xml",
  },
  "dig-sess-as-plain": {
    breaks: ["DIG-4"],
    description:
      "offers MD5-sess and SHA-256-sess but computes them like MD5 and SHA-256, so correct -sess digests are refused",
  },
  "dig-no-authentication-info": {
    breaks: ["DIG-5", "DIG-11"],
    description: "grants access without an Authentication-Info header",
  },
  "dig-no-authentication-info-auth-int": {
    // DIG-11 too, as for every qop: with auth-int there is then no rspauth to prove the secret.
    breaks: ["DIG-5", "DIG-11"],
    description: "grants access without an Authentication-Info header where the request used qop=auth-int",
  },
  "dig-any-secret": {
    breaks: ["DIG-6", "DIG-8"],
    description: "never compares the response digest: any secret (and any body) gets in",
  },
  "dig-unknown-user-allowed": {
    breaks: ["DIG-6"],
    description: "lets in a user name it does not know, whatever the digest",
  },
  "dig-foreign-nonce": {
    breaks: ["DIG-6"],
    description: "never checks that a nonce is one it issued: a digest over a made-up nonce gets in",
  },
  "dig-spec-formula-only": {
    // DIG-8 too: it offers auth-int, yet a changed body gets in.
    breaks: ["DIG-4", "DIG-8"],
    description:
      "takes only SPEC.md's literal formula, H(A1:nonce:A2), leaving nc, cnonce, qop and the auth-int body out of the digest",
  },
  "dig-offers-basic": {
    breaks: ["DIG-7"],
    description: "offers a Basic challenge beside Digest, inviting the secret in clear text",
  },
  "dig-auth-int-unchecked": {
    breaks: ["DIG-8"],
    description: "accepts qop=auth-int without checking the digest, so a changed body gets through",
  },
  "dig-auth-int-empty-body": {
    breaks: ["DIG-8"],
    description:
      "computes the auth-int digest over an empty body whatever was sent, so the body the digest covers is refused",
  },
  "dig-replay-allowed": {
    breaks: ["DIG-9", "DIG-10"],
    description: "keeps no log of used nonces: a replayed Authorization gets in again",
  },
  "dig-no-stale": {
    breaks: ["DIG-10"],
    description: "refuses a used-up nonce without stale=true, so the client must ask the user again",
  },
  "dig-wrong-rspauth": {
    breaks: ["DIG-11"],
    description: "computes rspauth with the request method in A2, like the request digest",
  },
  "dig-rspauth-request-body": {
    breaks: ["DIG-11"],
    description: "computes auth-int's rspauth over the request's body instead of the reply's",
  },
  "dig-no-uri-check": {
    breaks: ["DIG-12"],
    description: "does not check that the uri directive names the request target",
  },
  "dig-unknown-qop-crash": {
    breaks: ["DIG-12"],
    description: "fails with 500 on a qop it does not know",
  },
  "dig-missing-directive-crash": {
    breaks: ["DIG-12"],
    description:
      "fails with 500 when a directive it needs (response, username, nonce, uri, qop, nc, cnonce) is missing",
  },
  "dig-rfc2069-accepted": {
    // DIG-9 too: with no nc to count, the request is never logged, so it can be replayed.
    breaks: ["DIG-9", "DIG-12"],
    description:
      "accepts an RFC 2069 digest without qop, nc and cnonce although it offered qop (a downgrade), and never logs its use",
  },
  "dig-lenient-nc": {
    breaks: ["DIG-12"],
    description: "reads nc with parseInt instead of requiring eight hexadecimal digits, so nc=1 or nc=0000000g gets in",
  },
  "dig-unknown-algorithm-default": {
    breaks: ["DIG-12"],
    description: "takes an algorithm it does not know for its first offered one (SHA-256) instead of refusing it",
  },
  "dig-client-realm": {
    breaks: ["DIG-12"],
    description:
      "keeps the password in the clear and hashes it with the realm the client names, so another realm gets in",
  },
  "dig-unclosed-quote": {
    breaks: ["DIG-12"],
    description:
      "reads a quoted string that is never closed up to the end of the header instead of refusing the header",
  },
  "dig-unoffered-algorithm": {
    breaks: ["DIG-12"],
    description: "takes any algorithm of a hash it offers, so MD5-sess gets in where only MD5 was offered",
  },
  "dig-stale-on-wrong-digest": {
    breaks: ["DIG-6"],
    description: "marks every refusal stale=true, a wrong digest too, inviting the client to retry the same secret",
  },
  // Faults seen in real digest servers (issue 14); the suite catches them only by varying one thing at a time.
  "dig-nonce-timestamp-only": {
    breaks: ["DIG-6"],
    description:
      "reads only the time at the head of a nonce, not the MAC: a nonce of its shape it never issued (an issued one with its tail changed) gets in",
  },
  "dig-nonce-counter": {
    breaks: ["DIG-13"],
    description: "hands out nonces from a counter (0000000000000041, then …42), so anyone who saw one knows the next",
  },
  "dig-nonce-hashed-counter": {
    breaks: ["DIG-13"],
    description:
      "hands out the MD5 of a counter as its nonce: it looks random to every statistical test, yet anyone can compute the next",
  },
  "dig-refuse-all": {
    breaks: ["DIG-4"],
    description: "refuses every login, as a server whose password file was made for another realm",
  },
  "dig-unknown-algorithm-as-md5": {
    breaks: ["DIG-12"],
    description: "computes an algorithm it does not know as MD5, so an unknown algorithm over an MD5 digest gets in",
  },
  "dig-nc-six-digits": {
    breaks: ["DIG-12"],
    description: "takes nc of six or seven hexadecimal digits, not only eight",
  },
  "dig-auth-int-body-ignored": {
    breaks: ["DIG-8"],
    description:
      "offers auth-int but computes its digest with SPEC.md's literal formula, leaving the body out, so a changed body gets in",
  },
  // Faults only mutated credentials find (issue 33): one directive changed, the rest right.
  "dig-response-prefix": {
    breaks: ["DIG-6"],
    description:
      "compares only as many characters of the response as the client sent (strncmp with the client's length), so an empty or cut response gets in",
  },
  "dig-repeated-directive-last": {
    breaks: ["DIG-12"],
    description:
      "reads a directive given twice as its last value instead of refusing the header, so a doubled uri, username or response gets in",
  },
  // Faults on one algorithm of two (issue 57): the server offers SHA-256 and MD5, and only MD5 goes wrong.
  "dig-md5-no-authentication-info": {
    // DIG-11 too: an MD5 grant carries no rspauth to prove the secret.
    breaks: ["DIG-5", "DIG-11"],
    description: "grants MD5 credentials without an Authentication-Info header (SHA-256 grants carry it)",
  },
  "dig-md5-auth-int-empty-body": {
    breaks: ["DIG-8"],
    description:
      "computes the MD5 auth-int digest over an empty body whatever was sent, so a right MD5 auth-int request with a body is refused (SHA-256 is right)",
  },
  "dig-md5-nonces-unlogged": {
    // DIG-10 too: an MD5 nonce is never used up, so it is never answered stale.
    breaks: ["DIG-9", "DIG-10"],
    description:
      "never logs the use of an MD5 nonce: under the use limit the description states (the bundled reference's one-time nonces), an MD5 nonce gets in past it and a replay gets in (SHA-256 nonces are counted)",
  },
  "dig-md5-any-secret": {
    // DIG-8 too: an MD5 auth-int digest is not compared either, so a changed body gets in.
    breaks: ["DIG-6", "DIG-8"],
    description:
      "never compares the response digest of MD5 credentials: any secret gets in with MD5 (SHA-256 is right)",
  },
  "dig-md5-response-prefix": {
    breaks: ["DIG-6"],
    description:
      "compares an MD5 response only as far as the client's is long, so an empty or cut MD5 response gets in (SHA-256 responses are compared whole)",
  },
  "dig-md5-lenient-nc": {
    breaks: ["DIG-12"],
    description:
      "reads the nc of MD5 credentials with parseInt, so MD5 credentials with nc=1 or nc=0000000g get in (SHA-256 ones need eight hexadecimal digits)",
  },
  "dig-empty-algorithm-as-md5": {
    breaks: ["DIG-12"],
    description:
      'reads algorithm="" as no algorithm named, which RFC 7616 takes for MD5, so MD5 credentials with an empty algorithm get in (SHA-256 ones then fail to match)',
  },
  "dig-md5-repeated-nonce": {
    // DIG-6 too: its should part, 401 with a fresh challenge, on the MD5 cases.
    breaks: ["DIG-3", "DIG-6"],
    description:
      "answers a wrong MD5 digest with a challenge that repeats the nonce the client sent (a wrong SHA-256 digest gets a new one)",
  },
  "dig-md5-refusal-offers-basic": {
    breaks: ["DIG-7"],
    description:
      "answers refused MD5 credentials with a Basic challenge beside the Digest ones, a fallback for clients whose MD5 digest fails (a SHA-256 refusal offers Digest alone)",
  },
  "dig-nonce-log-scanned": {
    breaks: [],
    grows: ["LIM-4"],
    description:
      "every nonce issued is logged, and never dropped; a nonce sent back is looked up by comparing it with each logged one, in constant time",
  },
} satisfies Record<string, FaultInfo>;
