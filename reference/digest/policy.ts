/**
 * The digest protection's decisions under the active fault modes (faults.ts): read once, so
 * the guard and the route ask what to do, never which mode is on.
 */
import { type Algorithm, type HashName, hashOf, parseAlgorithm, type Qop } from "../../lib/digest-math.ts";
import type { digestFaults } from "./faults.ts";
import type { NonceStore } from "./nonces.ts";
import type { NonceForm } from "./predictable-nonces.ts";

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
  /** Whether a refusal of credentials of this algorithm offers a Basic challenge beside Digest. */
  offersBasicOnRefusal(algorithm: Algorithm): boolean;
  /** The algorithm written quoted and in lower case, not as a registered token. */
  writesAlgorithmLoosely: boolean;
  /** One nonce in every challenge until somebody gets in with it, instead of a fresh one each time. */
  reusesNonceUntilUsed: boolean;
  /** How a nonce is made: the store's MAC, or (faults) a counter, shown as it is or hashed. */
  nonceForm: NonceForm;
  /** Every nonce issued is logged for ever, and a nonce is known by a scan of the log (logged-nonces.ts). */
  scansNonceLog: boolean;
  /** Whether a refused digest of this algorithm is answered with the nonce it came with, not a new one. */
  echoesRefusedNonce(algorithm: Algorithm): boolean;
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
  /**
   * The algorithm credentials naming this one are computed with (none named: MD5, RFC 7616
   * §3.3); undefined: they are refused.
   */
  algorithmTakenFor(named: string | undefined, offered: readonly HashName[]): Algorithm | undefined;
  /** Any algorithm of an offered hash is taken, -sess or not, offered or not. */
  takesAnyAlgorithmOfOfferedHash: boolean;
  /** Whether nc has the shape it must have (eight hexadecimal digits), in credentials of this algorithm. */
  acceptsNc(nc: string, algorithm: Algorithm): boolean;
  /** Whether uri must name the request target (§3.4.6). */
  checksUri: boolean;
  /** The password is hashed with the realm the client names, so any realm gets in. */
  usesClientRealm: boolean;
  /** Whether a nonce this server never issued is taken all the same. */
  trustsUnissuedNonce(nonce: string, nonces: Pick<NonceStore, "timestampCurrent">): boolean;

  // The response (§3.4.1) and the nonce's use
  grantsUnknownUser: boolean;
  refusesEveryLogin: boolean;
  /** Whether the response of this algorithm is compared only as far as the client's is long (an empty one matches). */
  comparesResponsePrefix(algorithm: Algorithm): boolean;
  /** Whether the response digest is compared at all for this qop and algorithm. */
  checksResponse(qop: Qop | undefined, algorithm: Algorithm): boolean;
  /** RFC 7616's formula, or SPEC.md's literal H(A1:nonce:A2) that leaves nc, cnonce, qop and the body out. */
  formula(qop: Qop | undefined): "rfc7616" | "spec";
  /** Whether the auth-int digest of this algorithm is computed over an empty body, whatever was sent. */
  hashesEmptyAuthIntBody(algorithm: Algorithm): boolean;
  /** Whether a granted request is logged against its nonce, so a replay is refused. */
  logsNonceUse(qop: Qop | undefined, algorithm: Algorithm): boolean;

  // Access granted (§3.5)
  sendsAuthenticationInfo(qop: Qop | undefined, algorithm: Algorithm): boolean;
  /** rspauth computed like the request's response, with the method in A2. */
  rspauthLikeRequestDigest: boolean;
  /** auth-int's rspauth computed over the request's body instead of the reply's. */
  rspauthOverRequestBody: boolean;
  /** The protected resource served as text/plain instead of application/xml. */
  servesPlainText: boolean;
}

/** MD5 or MD5-sess: the older hash, which the faults of issue 57 treat apart from SHA-256. */
const md5 = (algorithm: Algorithm) => hashOf(algorithm) === "MD5";

export function digestPolicy(active: ReadonlySet<string>): DigestPolicy {
  const on = (fault: DigestFault) => active.has(fault);
  const ncShape = on("dig-nc-six-digits") ? /^[0-9a-fA-F]{6,8}$/ : /^[0-9a-fA-F]{8}$/;
  return {
    challengeStatus: on("dig-challenge-403") ? 403 : 401,
    challengeHasErrorBody: !on("dig-no-error-body"),
    offersBasic: on("dig-offers-basic"),
    offersBasicOnRefusal: (algorithm) => md5(algorithm) && on("dig-md5-refusal-offers-basic"),
    writesAlgorithmLoosely: on("dig-algorithm-quoted-lower"),
    reusesNonceUntilUsed: on("dig-nonce-until-used"),
    nonceForm: on("dig-nonce-counter") ? "counter" : on("dig-nonce-hashed-counter") ? "hashed-counter" : "mac",
    scansNonceLog: on("dig-nonce-log-scanned"),
    echoesRefusedNonce: (algorithm) => on("dig-repeated-nonce") || (md5(algorithm) && on("dig-md5-repeated-nonce")),
    staleOnEveryRefusal: on("dig-stale-on-wrong-digest"),
    staleOnUsedUpNonce: !on("dig-no-stale"),
    offersSessAlgorithms: on("dig-sess-as-plain"),
    computesSessAsPlain: on("dig-sess-as-plain"),

    takesLastOfRepeatedDirective: on("dig-repeated-directive-last"),
    readsUnclosedQuote: on("dig-unclosed-quote"),
    acceptsRfc2069Downgrade: on("dig-rfc2069-accepted"),
    crashesOnMissingDirective: on("dig-missing-directive-crash"),
    crashesOnUnknownQop: on("dig-unknown-qop-crash"),
    algorithmTakenFor: (named, offered) => {
      // JavaScript's `algorithm || "MD5"`: an empty value is no value.
      const known = parseAlgorithm(named === "" && on("dig-empty-algorithm-as-md5") ? undefined : named);
      if (known || on("dig-unknown-algorithm-default")) return known ?? offered[0];
      return on("dig-unknown-algorithm-as-md5") ? "MD5" : undefined;
    },
    takesAnyAlgorithmOfOfferedHash: on("dig-unoffered-algorithm"),
    acceptsNc: (nc, algorithm) =>
      on("dig-lenient-nc") || (md5(algorithm) && on("dig-md5-lenient-nc")) || ncShape.test(nc),
    checksUri: !on("dig-no-uri-check"),
    usesClientRealm: on("dig-client-realm"),
    // The timestamp-only server reads the time at the head of a nonce, not the MAC that proves it issued it.
    trustsUnissuedNonce: (nonce, nonces) =>
      on("dig-foreign-nonce") || (on("dig-nonce-timestamp-only") && nonces.timestampCurrent(nonce)),

    grantsUnknownUser: on("dig-unknown-user-allowed"),
    refusesEveryLogin: on("dig-refuse-all"),
    comparesResponsePrefix: (algorithm) =>
      on("dig-response-prefix") || (md5(algorithm) && on("dig-md5-response-prefix")),
    checksResponse: (qop, algorithm) =>
      !on("dig-any-secret") &&
      !(qop === "auth-int" && on("dig-auth-int-unchecked")) &&
      !(md5(algorithm) && on("dig-md5-any-secret")),
    formula: (qop) =>
      on("dig-spec-formula-only") || (qop === "auth-int" && on("dig-auth-int-body-ignored")) ? "spec" : "rfc7616",
    hashesEmptyAuthIntBody: (algorithm) =>
      on("dig-auth-int-empty-body") || (md5(algorithm) && on("dig-md5-auth-int-empty-body")),
    // The downgrade's server counts uses by nc, and an RFC 2069 request has none.
    logsNonceUse: (qop, algorithm) =>
      !on("dig-replay-allowed") &&
      !(qop === undefined && on("dig-rfc2069-accepted")) &&
      !(md5(algorithm) && on("dig-md5-nonces-unlogged")),

    sendsAuthenticationInfo: (qop, algorithm) =>
      !on("dig-no-authentication-info") &&
      !(qop === "auth-int" && on("dig-no-authentication-info-auth-int")) &&
      !(md5(algorithm) && on("dig-md5-no-authentication-info")),
    rspauthLikeRequestDigest: on("dig-wrong-rspauth"),
    rspauthOverRequestBody: on("dig-rspauth-request-body"),
    servesPlainText: on("dig-plain-text-resource"),
  };
}
