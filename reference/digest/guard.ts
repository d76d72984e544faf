/**
 * The pure core of the reference's digest protection: builds challenges and judges an
 * Authorization header (RFC 7616). No sockets; the route in routes.ts turns verdicts into
 * replies. Faults, when switched on, lapse one check each.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { type Directive, formatParams, parseCredentials } from "../../lib/auth-params.ts";
import {
  type Algorithm,
  type HashName,
  hashOf,
  parseAlgorithm,
  type Qop,
  type ResponseInput,
  responseDigest,
  rspauthDigest,
} from "../../lib/digest-math.ts";
import type { FaultName } from "../faults.ts";
import type { NonceStore } from "./nonces.ts";
import { demoUsers, type UserStore } from "./users.ts";

export interface GuardSettings {
  realm: string;
  /** Sent with every challenge and expected back unchanged; absent: no opaque. */
  opaque?: string;
  qops: readonly Qop[];
  /** Offered in this order, one challenge each. */
  hashes: readonly HashName[];
  users: UserStore;
  nonces: NonceStore;
  faults: ReadonlySet<FaultName>;
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
  /** Well-formed but not good enough: a 401 with a fresh challenge. */
  | { kind: "refused"; message: string; stale: boolean; nonce?: string }
  | { kind: "granted"; username: string; authenticationInfo: Directive[] };

const REQUIRED = ["username", "realm", "nonce", "uri", "response"] as const;
const WITH_QOP = ["qop", "nc", "cnonce"] as const;
/** Compared against for an unknown user, so that case costs what a wrong password costs. */
const NOBODY_HA1 = randomBytes(32).toString("hex");

/** One WWW-Authenticate value per offered hash, strongest first. */
export function challenges(settings: GuardSettings, nonce: string, stale: boolean): string[] {
  return offeredAlgorithms(settings).map((algorithm) => {
    const directives: Directive[] = [
      { name: "realm", value: settings.realm, quoted: true },
      { name: "qop", value: settings.qops.join(", "), quoted: true },
      { name: "algorithm", value: algorithm, quoted: false },
      { name: "nonce", value: nonce, quoted: true },
    ];
    if (settings.opaque !== undefined) directives.push({ name: "opaque", value: settings.opaque, quoted: true });
    if (stale) directives.push({ name: "stale", value: "true", quoted: false });
    return `Digest ${formatParams(directives)}`;
  });
}

function offeredAlgorithms(settings: GuardSettings): readonly Algorithm[] {
  return settings.faults.has("dig-sess-as-plain")
    ? settings.hashes.flatMap((hash) => [hash, `${hash}-sess` as const])
    : settings.hashes;
}

export async function judge(settings: GuardSettings, attempt: Attempt): Promise<Verdict> {
  const { faults } = settings;
  if (attempt.authorization === undefined || !/^\s*digest(\s|$)/i.test(attempt.authorization))
    return { kind: "missing" };
  let parsed = parseCredentials(attempt.authorization);
  // The fault's parser reads a quoted string that is never closed up to the end of the header.
  if (!parsed.ok && faults.has("dig-unclosed-quote")) parsed = parseCredentials(`${attempt.authorization}"`);
  if (!parsed.ok) return malformed(`the Authorization header cannot be parsed: ${parsed.error}`);
  const given = parsed.value.params;
  // Without qop (RFC 2069) only a server that offers none may accept: otherwise it is a downgrade.
  const downgrade = faults.has("dig-rfc2069-accepted");
  const required = given.has("qop") || (settings.qops.length > 0 && !downgrade) ? [...REQUIRED, ...WITH_QOP] : REQUIRED;
  const absent = required.filter((name) => !given.has(name));
  if (absent.length > 0) {
    if (faults.has("dig-missing-directive-crash")) throw new Error(`cannot read ${absent[0]}: it is undefined`);
    return malformed(`the credentials lack ${absent.join(", ")}`);
  }
  const field = (name: string) => given.get(name) ?? "";

  const algorithm = parseAlgorithm(given.get("algorithm")) ?? unknownAlgorithmFallback(settings);
  // The fault's server takes any algorithm of a hash it offers, -sess or not.
  const takes = faults.has("dig-unoffered-algorithm")
    ? (a: Algorithm) => settings.hashes.includes(hashOf(a))
    : (a: Algorithm) => offeredAlgorithms(settings).includes(a);
  if (!algorithm || !takes(algorithm)) {
    return malformed(`algorithm ${given.get("algorithm")} is not offered here`);
  }
  const qop = given.get("qop") as Qop | undefined;
  if (qop !== undefined && !settings.qops.includes(qop)) {
    if (faults.has("dig-unknown-qop-crash")) throw new Error(`no handler for qop ${qop}`);
    return malformed(`qop ${qop} is not offered here (offered: ${settings.qops.join(", ")})`);
  }
  if (qop !== undefined && !faults.has("dig-lenient-nc") && !ncShape(faults).test(field("nc"))) {
    return malformed("nc must be eight hexadecimal digits");
  }
  if (field("uri") !== attempt.target && !faults.has("dig-no-uri-check")) {
    return { kind: "malformed", message: "uri does not name the request target", uriMismatch: true };
  }
  const clientRealm = faults.has("dig-client-realm");
  if (field("realm") !== settings.realm && !clientRealm) return refused(`realm must be "${settings.realm}"`);
  if (settings.opaque !== undefined && given.get("opaque") !== settings.opaque) {
    return refused("opaque must be returned unchanged");
  }
  const foreign = settings.nonces.origin(field("nonce")) === "unknown";
  // The fault's server reads only the time at the head of a nonce, not the MAC that proves it issued it.
  const trusted =
    faults.has("dig-foreign-nonce") ||
    (faults.has("dig-nonce-timestamp-only") && settings.nonces.timestampCurrent(field("nonce")));
  if (foreign && !trusted) return refused("this nonce was not issued here");

  // The fault's server keeps the password in the clear and hashes it with whatever realm the client names.
  const users = clientRealm ? demoUsers(field("realm")) : settings.users;
  const ha1 = users.get(field("username"))?.[hashOf(algorithm)];
  if (ha1 === undefined && faults.has("dig-unknown-user-allowed")) return grant(settings, algorithm, given, NOBODY_HA1);
  const input: ResponseInput = {
    algorithm: faults.has("dig-sess-as-plain") ? hashOf(algorithm) : algorithm,
    ha1: ha1 ?? NOBODY_HA1,
    nonce: field("nonce"),
    method: attempt.method,
    uri: field("uri"),
    qop,
    nc: given.get("nc")?.toLowerCase(),
    cnonce: given.get("cnonce"),
    // The fault's server hashes the body before it has read it, so always an empty one.
    body: qop !== "auth-int" ? undefined : faults.has("dig-auth-int-empty-body") ? "" : await attempt.body(),
    // The faults' servers take SPEC.md's formula as written (nc, cnonce, qop and the body stay out): always, or for auth-int.
    formula:
      faults.has("dig-spec-formula-only") || (qop === "auth-int" && faults.has("dig-auth-int-body-ignored"))
        ? "spec"
        : "rfc7616",
  };
  const unchecked = faults.has("dig-any-secret") || (qop === "auth-int" && faults.has("dig-auth-int-unchecked"));
  // The fault's server refuses every login, as one whose password file was made for another realm.
  const matches =
    ha1 !== undefined && !faults.has("dig-refuse-all") && sameDigest(responseDigest(input), field("response"));
  if (!unchecked && !matches) {
    return refused("the response does not match: wrong user name or secret", false, input.nonce);
  }
  // A nonce the server never issued is not in its log either (only the fault lets one get this far).
  // The downgrade fault's server counts uses by nc, and an RFC 2069 request has none.
  const uncounted = downgrade && qop === undefined;
  if (!foreign && !uncounted && !faults.has("dig-replay-allowed")) {
    const use = settings.nonces.use(input.nonce, Number.parseInt(input.nc ?? "1", 16));
    if (use === "stale") return refused("this nonce is used up or expired", !faults.has("dig-no-stale"));
    return grant(settings, algorithm, given, input.ha1, input, settings.nonces.successorDue(input.nonce));
  }
  return grant(settings, algorithm, given, input.ha1, input);
}

function grant(
  settings: GuardSettings,
  algorithm: Algorithm,
  given: ReadonlyMap<string, string>,
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
    qop: given.get("qop") as Qop | undefined,
    nc: given.get("nc"),
    cnonce: given.get("cnonce"),
  };
  // The classic slip: rspauth computed like the request's response, with the method in A2.
  const rspauth = settings.faults.has("dig-wrong-rspauth") ? responseDigest(computed) : rspauthDigest(computed);
  return {
    kind: "granted",
    username: given.get("username") ?? "",
    authenticationInfo: [
      { name: "rspauth", value: rspauth, quoted: true },
      ...(computed.qop === undefined
        ? []
        : [
            { name: "qop", value: computed.qop, quoted: false },
            { name: "cnonce", value: computed.cnonce ?? "", quoted: true },
            { name: "nc", value: computed.nc ?? "", quoted: false },
          ]),
      ...(successor ? [{ name: "nextnonce", value: settings.nonces.issue(), quoted: true }] : []),
    ],
  };
}

/** For an algorithm the server does not know: refused, or under the faults taken for one it knows. */
function unknownAlgorithmFallback(settings: GuardSettings): Algorithm | undefined {
  if (settings.faults.has("dig-unknown-algorithm-default")) return settings.hashes[0];
  return settings.faults.has("dig-unknown-algorithm-as-md5") ? "MD5" : undefined;
}

/** Eight hexadecimal digits (RFC 7616 §3.4); the fault's server takes six or seven as well. */
function ncShape(faults: ReadonlySet<FaultName>): RegExp {
  return faults.has("dig-nc-six-digits") ? /^[0-9a-fA-F]{6,8}$/ : /^[0-9a-fA-F]{8}$/;
}

/** Constant time in the digest's content: a mismatch at the first digit costs what one at the last does. */
function sameDigest(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given.toLowerCase());
  return a.length === b.length && timingSafeEqual(a, b);
}

function malformed(message: string): Verdict {
  return { kind: "malformed", message, uriMismatch: false };
}

function refused(message: string, stale = false, nonce?: string): Verdict {
  return { kind: "refused", message, stale, nonce };
}
