/**
 * The pure core of the reference's digest protection: builds challenges and judges an
 * Authorization header (RFC 7616). No sockets; the route in routes.ts turns verdicts into
 * replies. Its policy (faults.ts) says where a fault mode lapses a check.
 */
import { randomBytes } from "node:crypto";
import { type Directive, formatParams, parseCredentials } from "../../lib/auth-params.ts";
import {
  type Algorithm,
  type HashName,
  hashOf,
  type Qop,
  type ResponseInput,
  responseDigest,
  rspauthDigest,
} from "../../lib/digest-math.ts";
import { sameText } from "../../lib/same-text.ts";
import type { DigestPolicy } from "./policy.ts";
import type { Nonces } from "./predictable-nonces.ts";
import { demoUsers, type UserStore } from "./users.ts";

export interface GuardSettings {
  realm: string;
  /** Sent with every challenge and expected back unchanged; absent: no opaque. */
  opaque?: string;
  qops: readonly Qop[];
  /** Offered in this order, one challenge each. */
  hashes: readonly HashName[];
  users: UserStore;
  nonces: Nonces;
  /** Where a fault mode makes this server depart from the RFC (see faults.ts). */
  policy: DigestPolicy;
}

export interface Attempt {
  method: string;
  /** The request-target as sent, which the uri directive must repeat. */
  target: string;
  authorization?: string;
  body(): Promise<Buffer>;
}

export type Verdict =
  | { kind: "missing" }
  /** The header cannot be parsed or breaks the rules: a 400 (or 401) without access. */
  | { kind: "malformed"; message: string; uriMismatch: boolean }
  /** Well-formed but not good enough: a 401 with a fresh challenge (nonce: the one answered, which the reply may repeat). */
  | { kind: "refused"; message: string; stale: boolean; nonce?: string; algorithm: Algorithm }
  | {
      kind: "granted";
      username: string;
      algorithm: Algorithm;
      qop: Qop | undefined;
      /** Authentication-Info for the reply with this body, which auth-int's rspauth covers (§3.5). */
      authenticationInfo(replyBody: string): Directive[];
    };

/** Credentials whose directives are all there and each of a kind this server offered. */
interface Credentials {
  given: ReadonlyMap<string, string>;
  algorithm: Algorithm;
  qop: Qop | undefined;
}

/** A step of the judgement: on to the next with what it found, or the verdict that ends it. */
type Step<T> = { ok: true; value: T } | { ok: false; verdict: Verdict };

const REQUIRED = ["username", "realm", "nonce", "uri", "response"] as const;
const REQUIRED_WITH_QOP = [...REQUIRED, "qop", "nc", "cnonce"] as const;
/** Compared against for an unknown user, so that case costs what a wrong password costs. */
const NOBODY_HA1 = randomBytes(32).toString("hex");

/**
 * One WWW-Authenticate value per offered hash, strongest first, each with the nonce `nonceOf`
 * gives it: the same one for all, or a fresh one each (then a client that answers one
 * challenge's algorithm with another's nonce shows it).
 */
export function challenges(settings: GuardSettings, nonceOf: () => string, stale: boolean): string[] {
  return offeredAlgorithms(settings).map((algorithm) => {
    const nonce = nonceOf();
    const directives: Directive[] = [
      { name: "realm", value: settings.realm, quoted: true },
      { name: "qop", value: settings.qops.join(", "), quoted: true },
      settings.policy.writesAlgorithmLoosely
        ? { name: "algorithm", value: algorithm.toLowerCase(), quoted: true }
        : { name: "algorithm", value: algorithm, quoted: false },
      { name: "nonce", value: nonce, quoted: true },
    ];
    if (settings.opaque !== undefined) directives.push({ name: "opaque", value: settings.opaque, quoted: true });
    if (stale) directives.push({ name: "stale", value: "true", quoted: false });
    return `Digest ${formatParams(directives)}`;
  });
}

function offeredAlgorithms(settings: GuardSettings): readonly Algorithm[] {
  return settings.policy.offersSessAlgorithms
    ? settings.hashes.flatMap((hash) => [hash, `${hash}-sess` as const])
    : settings.hashes;
}

/**
 * RFC 7616 in order: the credentials are read (§3.4), they must be for this request, realm and
 * server (§3.4.6), over a nonce issued here; the response must match the one computed (§3.4.1);
 * the nonce's use is counted, so a replay is refused and a spent nonce called stale (§3.3).
 * The verdict comes at once, but for qop=auth-int, which waits for the request's body: a login
 * costs no promise and no suspended call where nothing is waited for.
 */
export function judge(settings: GuardSettings, attempt: Attempt): Verdict | Promise<Verdict> {
  if (attempt.authorization === undefined || !/^\s*digest(\s|$)/i.test(attempt.authorization))
    return { kind: "missing" };
  const read = readCredentials(settings, attempt.authorization);
  if (!read.ok) return read.verdict;
  const credentials = read.value;
  const field = (name: string) => credentials.given.get(name) ?? "";
  const outOfScope = scopeMismatch(settings, attempt, credentials);
  if (outOfScope) return outOfScope;
  // The fault that keeps a log of every nonce (sxd limits, LIM-4) reads it before anything else.
  if (settings.nonces.logged === undefined) return judgeIssued(settings, attempt, credentials, true);
  return settings.nonces.logged(field("nonce")).then((logged) => judgeIssued(settings, attempt, credentials, logged));
}

/** The rest of judge(): the nonce's origin, the user, then the response (over the body for auth-int). */
function judgeIssued(settings: GuardSettings, attempt: Attempt, credentials: Credentials, logged: boolean) {
  const { policy } = settings;
  const { qop } = credentials;
  const field = (name: string) => credentials.given.get(name) ?? "";
  const issuedHere = logged && settings.nonces.origin(field("nonce")) === "issued";
  if (!issuedHere && !policy.trustsUnissuedNonce(field("nonce"), settings.nonces)) {
    return refused("this nonce was not issued here", credentials.algorithm);
  }

  const users = policy.usesClientRealm ? demoUsers(field("realm")) : settings.users;
  const ha1 = users.get(field("username"))?.[hashOf(credentials.algorithm)];
  if (ha1 === undefined && policy.grantsUnknownUser) return grant(settings, credentials, NOBODY_HA1);
  if (qop !== "auth-int") return judgeResponse(settings, attempt, credentials, ha1, issuedHere, undefined);
  if (policy.hashesEmptyAuthIntBody(credentials.algorithm))
    return judgeResponse(settings, attempt, credentials, ha1, issuedHere, "");
  return attempt.body().then((body) => judgeResponse(settings, attempt, credentials, ha1, issuedHere, body));
}

/** §3.4.1 and §3.3: the response against the one computed (over the body for auth-int), then the nonce's use. */
function judgeResponse(
  settings: GuardSettings,
  attempt: Attempt,
  credentials: Credentials,
  ha1: string | undefined,
  issuedHere: boolean,
  authIntBody: string | Buffer | undefined,
): Verdict {
  const { policy } = settings;
  const { qop, algorithm } = credentials;
  const response = credentials.given.get("response") ?? "";
  const input = responseInput(settings, attempt, credentials, ha1 ?? NOBODY_HA1, authIntBody);
  const matches =
    ha1 !== undefined &&
    !policy.refusesEveryLogin &&
    (policy.comparesResponsePrefix(algorithm)
      ? responseDigest(input).startsWith(response.toLowerCase())
      : sameDigest(responseDigest(input), response));
  if (policy.checksResponse(qop, algorithm) && !matches) {
    return refused("the response does not match: wrong user name or secret", algorithm, false, input.nonce);
  }

  // A nonce the server never issued is not in its log either (only a fault lets one get this far).
  if (!issuedHere || !policy.logsNonceUse(qop, algorithm)) return grant(settings, credentials, input.ha1, input);
  const use = settings.nonces.use(input.nonce, Number.parseInt(input.nc ?? "1", 16));
  if (use === "stale") return refused("this nonce is used up or expired", algorithm, policy.staleOnUsedUpNonce);
  return grant(settings, credentials, input.ha1, input, settings.nonces.successorDue(input.nonce));
}

/** §3.4: the header parses, every directive it must have is there, and each names something offered. */
function readCredentials(settings: GuardSettings, authorization: string): Step<Credentials> {
  const { policy } = settings;
  let parsed = parseCredentials(authorization, policy.takesLastOfRepeatedDirective);
  if (!parsed.ok && policy.readsUnclosedQuote) parsed = parseCredentials(`${authorization}"`);
  if (!parsed.ok) return malformed(`the Authorization header cannot be parsed: ${parsed.error}`);
  const given = parsed.value.params;
  const qop = given.get("qop") as Qop | undefined;
  // Without qop (RFC 2069) only a server that offers none may accept: otherwise it is a downgrade.
  const qopExpected = qop !== undefined || (settings.qops.length > 0 && !policy.acceptsRfc2069Downgrade);
  const absent = (qopExpected ? REQUIRED_WITH_QOP : REQUIRED).filter((name) => !given.has(name));
  if (absent.length > 0) {
    if (policy.crashesOnMissingDirective) throw new Error(`cannot read ${absent[0]}: it is undefined`);
    return malformed(`the credentials lack ${absent.join(", ")}`);
  }

  const algorithm = policy.algorithmTakenFor(given.get("algorithm"), settings.hashes);
  const offered = (a: Algorithm) =>
    policy.takesAnyAlgorithmOfOfferedHash
      ? settings.hashes.includes(hashOf(a))
      : offeredAlgorithms(settings).includes(a);
  if (!algorithm || !offered(algorithm)) return malformed(`algorithm ${given.get("algorithm")} is not offered here`);
  if (qop !== undefined && !settings.qops.includes(qop)) {
    if (policy.crashesOnUnknownQop) throw new Error(`no handler for qop ${qop}`);
    return malformed(`qop ${qop} is not offered here (offered: ${settings.qops.join(", ")})`);
  }
  if (qop !== undefined && !policy.acceptsNc(given.get("nc") ?? "", algorithm)) {
    return malformed("nc must be eight hexadecimal digits");
  }
  return { ok: true, value: { given, algorithm, qop } };
}

/** §3.4.6 and §3.3: the credentials are for this request, this realm and this server's opaque. */
function scopeMismatch(settings: GuardSettings, attempt: Attempt, credentials: Credentials): Verdict | undefined {
  const { given, algorithm } = credentials;
  if (given.get("uri") !== attempt.target && settings.policy.checksUri) {
    return { kind: "malformed", message: "uri does not name the request target", uriMismatch: true };
  }
  if (given.get("realm") !== settings.realm && !settings.policy.usesClientRealm) {
    return refused(`realm must be "${settings.realm}"`, algorithm);
  }
  if (settings.opaque !== undefined && given.get("opaque") !== settings.opaque) {
    return refused("opaque must be returned unchanged", algorithm);
  }
  return undefined;
}

/** §3.4.1: what the response digest is computed from, the body too for auth-int (read only then). */
function responseInput(
  settings: GuardSettings,
  attempt: Attempt,
  { given, algorithm, qop }: Credentials,
  ha1: string,
  authIntBody: string | Buffer | undefined,
): ResponseInput {
  const { policy } = settings;
  return {
    algorithm: policy.computesSessAsPlain ? hashOf(algorithm) : algorithm,
    ha1,
    nonce: given.get("nonce") ?? "",
    method: attempt.method,
    uri: given.get("uri") ?? "",
    qop,
    nc: given.get("nc")?.toLowerCase(),
    cnonce: given.get("cnonce"),
    body: authIntBody,
    formula: policy.formula(qop),
  };
}

/** §3.5: access, with Authentication-Info proving the server knows the secret too. */
function grant(
  settings: GuardSettings,
  { given, algorithm, qop }: Credentials,
  ha1: string,
  input?: ResponseInput,
  /** Whether to hand out the next nonce (nextnonce): where the nonce's uses are not counted, always. */
  successor = true,
): Verdict {
  const computed: ResponseInput = input ?? {
    algorithm,
    ha1,
    nonce: given.get("nonce") ?? "",
    method: "",
    uri: given.get("uri") ?? "",
    qop,
    nc: given.get("nc"),
    cnonce: given.get("cnonce"),
  };
  const { policy } = settings;
  const echoed: Directive[] =
    computed.qop === undefined
      ? []
      : [
          { name: "qop", value: computed.qop, quoted: false },
          { name: "cnonce", value: computed.cnonce ?? "", quoted: true },
          { name: "nc", value: computed.nc ?? "", quoted: false },
        ];
  // Issued now, once, whatever reply carries it.
  const next: Directive[] = successor ? [{ name: "nextnonce", value: settings.nonces.issue(), quoted: true }] : [];
  const rspauthOf = (replyBody: string) => {
    if (policy.rspauthLikeRequestDigest) return responseDigest(computed);
    return rspauthDigest(computed, policy.rspauthOverRequestBody ? (computed.body ?? "") : replyBody);
  };
  return {
    kind: "granted",
    username: given.get("username") ?? "",
    algorithm,
    qop: computed.qop,
    authenticationInfo: (replyBody) => [
      { name: "rspauth", value: rspauthOf(replyBody), quoted: true },
      ...echoed,
      ...next,
    ],
  };
}

/** Constant time in the digest's content: a mismatch at the first digit costs what one at the last does. */
function sameDigest(expected: string, given: string): boolean {
  return sameText(expected, given.toLowerCase());
}

function malformed(message: string): { ok: false; verdict: Verdict } {
  return { ok: false, verdict: { kind: "malformed", message, uriMismatch: false } };
}

function refused(message: string, algorithm: Algorithm, stale = false, nonce?: string): Verdict {
  return { kind: "refused", message, stale, nonce, algorithm };
}
