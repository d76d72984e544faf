/**
 * Faulty modes of the digest protection, each a mistake real servers make. The rows are
 * those a conformance run against the reference (nonce policy stated) must report failed.
 * `digestPolicy` reads the active modes once into the decisions the guard and the route take,
 * so they ask what to do, never which mode is on.
 */
import type { Algorithm, HashName, Qop } from "../../lib/digest-math.ts";
import type { FaultInfo } from "../fault-info.ts";
import type { NonceStore } from "./nonces.ts";
import type { NonceForm } from "./predictable-nonces.ts";

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
    breaks: ["DIG-5"],
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
} satisfies Record<string, FaultInfo>;

type DigestFault = keyof typeof digestFaults;

/**
 * Where the digest protection departs from RFC 7616. Without faults every field says what the
 * RFC says: 401 with a body and a fresh nonce, every directive checked, the response compared.
 */
export interface DigestPolicy {
  // The challenge (RFC 7616 §3.3)
  /** The status of a request without credentials. */
  challengeStatus: 401 | 403;
  challengeHasErrorBody: boolean;
  /** A Basic challenge beside Digest, inviting the secret in clear text. */
  offersBasic: boolean;
  /** The algorithm written quoted and in lower case, not as a registered token. */
  writesAlgorithmLoosely: boolean;
  /** One nonce in every challenge until somebody gets in with it, instead of a fresh one each time. */
  reusesNonceUntilUsed: boolean;
  /** How a nonce is made: the store's MAC, or (faults) a counter, shown as it is or hashed. */
  nonceForm: NonceForm;
  /** A refused digest is answered with the nonce it came with, not a new one. */
  echoesRefusedNonce: boolean;
  /** Every refusal is marked stale, a wrong digest too (the RFC: only a spent nonce with a right digest). */
  staleOnEveryRefusal: boolean;
  staleOnUsedUpNonce: boolean;
  /** MD5-sess and SHA-256-sess are offered beside their hashes … */
  offersSessAlgorithms: boolean;
  /** … and computed as if they were the plain hash. */
  computesSessAsPlain: boolean;

  // Reading the credentials (§3.4)
  /** A directive given twice is read as its last value, not refused. */
  takesLastOfRepeatedDirective: boolean;
  /** A quoted string that is never closed is read up to the end of the header. */
  readsUnclosedQuote: boolean;
  /** Credentials without qop, nc and cnonce (RFC 2069) are taken although qop was offered. */
  acceptsRfc2069Downgrade: boolean;
  crashesOnMissingDirective: boolean;
  crashesOnUnknownQop: boolean;
  /** What an algorithm the server does not know is taken for; undefined: it is refused. */
  unknownAlgorithmTakenAs(offered: readonly HashName[]): Algorithm | undefined;
  /** Any algorithm of an offered hash is taken, -sess or not, offered or not. */
  takesAnyAlgorithmOfOfferedHash: boolean;
  /** Whether nc has the shape it must have (eight hexadecimal digits). */
  acceptsNc(nc: string): boolean;
  /** Whether uri must name the request target (§3.4.6). */
  checksUri: boolean;
  /** The password is hashed with the realm the client names, so any realm gets in. */
  usesClientRealm: boolean;
  /** Whether a nonce this server never issued is taken all the same. */
  trustsUnissuedNonce(nonce: string, nonces: Pick<NonceStore, "timestampCurrent">): boolean;

  // The response (§3.4.1) and the nonce's use
  grantsUnknownUser: boolean;
  refusesEveryLogin: boolean;
  /** The response is compared only as far as the client's is long (an empty one matches). */
  comparesResponsePrefix: boolean;
  /** Whether the response digest is compared at all for this qop. */
  checksResponse(qop: Qop | undefined): boolean;
  /** RFC 7616's formula, or SPEC.md's literal H(A1:nonce:A2) that leaves nc, cnonce, qop and the body out. */
  formula(qop: Qop | undefined): "rfc7616" | "spec";
  /** The auth-int digest is computed over an empty body, whatever was sent. */
  hashesEmptyAuthIntBody: boolean;
  /** Whether a granted request is logged against its nonce, so a replay is refused. */
  logsNonceUse(qop: Qop | undefined): boolean;

  // Access granted (§3.5)
  sendsAuthenticationInfo(qop: Qop | undefined): boolean;
  /** rspauth computed like the request's response, with the method in A2. */
  rspauthLikeRequestDigest: boolean;
  /** The protected resource served as text/plain instead of application/xml. */
  servesPlainText: boolean;
}

export function digestPolicy(active: ReadonlySet<string>): DigestPolicy {
  const on = (fault: DigestFault) => active.has(fault);
  const ncShape = on("dig-nc-six-digits") ? /^[0-9a-fA-F]{6,8}$/ : /^[0-9a-fA-F]{8}$/;
  return {
    challengeStatus: on("dig-challenge-403") ? 403 : 401,
    challengeHasErrorBody: !on("dig-no-error-body"),
    offersBasic: on("dig-offers-basic"),
    writesAlgorithmLoosely: on("dig-algorithm-quoted-lower"),
    reusesNonceUntilUsed: on("dig-nonce-until-used"),
    nonceForm: on("dig-nonce-counter") ? "counter" : on("dig-nonce-hashed-counter") ? "hashed-counter" : "mac",
    echoesRefusedNonce: on("dig-repeated-nonce"),
    staleOnEveryRefusal: on("dig-stale-on-wrong-digest"),
    staleOnUsedUpNonce: !on("dig-no-stale"),
    offersSessAlgorithms: on("dig-sess-as-plain"),
    computesSessAsPlain: on("dig-sess-as-plain"),

    takesLastOfRepeatedDirective: on("dig-repeated-directive-last"),
    readsUnclosedQuote: on("dig-unclosed-quote"),
    acceptsRfc2069Downgrade: on("dig-rfc2069-accepted"),
    crashesOnMissingDirective: on("dig-missing-directive-crash"),
    crashesOnUnknownQop: on("dig-unknown-qop-crash"),
    unknownAlgorithmTakenAs: (offered) => {
      if (on("dig-unknown-algorithm-default")) return offered[0];
      return on("dig-unknown-algorithm-as-md5") ? "MD5" : undefined;
    },
    takesAnyAlgorithmOfOfferedHash: on("dig-unoffered-algorithm"),
    acceptsNc: (nc) => on("dig-lenient-nc") || ncShape.test(nc),
    checksUri: !on("dig-no-uri-check"),
    usesClientRealm: on("dig-client-realm"),
    // The timestamp-only server reads the time at the head of a nonce, not the MAC that proves it issued it.
    trustsUnissuedNonce: (nonce, nonces) =>
      on("dig-foreign-nonce") || (on("dig-nonce-timestamp-only") && nonces.timestampCurrent(nonce)),

    grantsUnknownUser: on("dig-unknown-user-allowed"),
    refusesEveryLogin: on("dig-refuse-all"),
    comparesResponsePrefix: on("dig-response-prefix"),
    checksResponse: (qop) => !on("dig-any-secret") && !(qop === "auth-int" && on("dig-auth-int-unchecked")),
    formula: (qop) =>
      on("dig-spec-formula-only") || (qop === "auth-int" && on("dig-auth-int-body-ignored")) ? "spec" : "rfc7616",
    hashesEmptyAuthIntBody: on("dig-auth-int-empty-body"),
    // The downgrade's server counts uses by nc, and an RFC 2069 request has none.
    logsNonceUse: (qop) => !on("dig-replay-allowed") && !(qop === undefined && on("dig-rfc2069-accepted")),

    sendsAuthenticationInfo: (qop) =>
      !on("dig-no-authentication-info") && !(qop === "auth-int" && on("dig-no-authentication-info-auth-int")),
    rspauthLikeRequestDigest: on("dig-wrong-rspauth"),
    servesPlainText: on("dig-plain-text-resource"),
  };
}
