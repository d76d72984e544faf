/**
 * The suite's own Digest client (RFC 7616), pure: reads challenges, computes credentials
 * for every algorithm and qop, checks the server's rspauth, and builds the deliberately
 * wrong credentials the negative scenarios send. No mainstream client sends a correct
 * auth-int digest, so this is the only client that can judge DIG-8.
 *
 *   const [challenge] = digestChallenges(headerOf(reply, "www-authenticate")).value;
 *   const answer = answerChallenge(challenge, "SHA-256", { method: "GET", uri: "/protected" }, { username, password });
 *   headers.authorization = authorizationOf(answer.directives);
 */
import { randomBytes } from "node:crypto";
import { type Directive, formatParams, parseChallenges, parseParamList } from "../../lib/auth-params.ts";
import {
  type Algorithm,
  type Formula,
  formatNc,
  hashA1,
  hashOf,
  hashUsername,
  parseAlgorithm,
  type Qop,
  type ResponseInput,
  responseDigest,
  rspauthDigest,
} from "../../lib/digest-math.ts";
import type { Result } from "../../lib/result.ts";

const CNONCE_BYTES = 12;
/** Random bytes for client nonces, drawn 64 at a time: one call to the system's source, not one per answer. */
let cnoncePool = Buffer.alloc(0);
let cnonceAt = 0;

/** A new client nonce: twelve random bytes, in hex. */
function freshCnonce(): string {
  if (cnonceAt + CNONCE_BYTES > cnoncePool.length) {
    cnoncePool = randomBytes(CNONCE_BYTES * 64);
    cnonceAt = 0;
  }
  cnonceAt += CNONCE_BYTES;
  return cnoncePool.toString("hex", cnonceAt - CNONCE_BYTES, cnonceAt);
}

export interface DigestChallenge {
  /** Every directive as sent, names lower-cased. */
  params: ReadonlyMap<string, string>;
  qops: string[];
  /** The algorithm as named in the challenge; absent means MD5. */
  algorithm: string;
  stale: boolean;
  /** userhash=true: the username directive carries H(username:realm) (RFC 7616 §3.4.4). */
  userhash: boolean;
}

/** The Digest challenges among all those of the WWW-Authenticate fields. */
export function digestChallenges(field: string | undefined): Result<DigestChallenge[]> {
  if (field === undefined) return { ok: true, value: [] };
  const parsed = parseChallenges(field);
  if (!parsed.ok) return parsed;
  return {
    ok: true,
    value: parsed.value
      .filter((item) => item.scheme.toLowerCase() === "digest")
      .map(({ params }) => ({
        params,
        qops: (params.get("qop") ?? "")
          .split(",")
          .map((qop) => qop.trim())
          .filter((qop) => qop !== ""),
        algorithm: params.get("algorithm") ?? "MD5",
        stale: params.get("stale")?.toLowerCase() === "true",
        userhash: params.get("userhash")?.toLowerCase() === "true",
      })),
  };
}

/** The suite's order of preference: the strongest hash first. */
const PREFERENCE: readonly Algorithm[] = [
  "SHA-256",
  "SHA-512-256",
  "SHA-256-sess",
  "SHA-512-256-sess",
  "MD5",
  "MD5-sess",
];

/** The algorithms of these challenges that the suite can answer, in its order of preference. */
export function answerableAlgorithms(challenges: readonly DigestChallenge[]): Algorithm[] {
  return PREFERENCE.filter((algorithm) => challenges.some((c) => parseAlgorithm(c.algorithm) === algorithm));
}

/** The algorithms of these challenges that the suite cannot answer (none RFC 7616 registers), as named. */
export function unanswerableAlgorithms(challenges: readonly DigestChallenge[]): string[] {
  return [...new Set(challenges.filter((c) => parseAlgorithm(c.algorithm) === undefined).map((c) => c.algorithm))];
}

/** The challenge the suite answers: the named algorithm, or the strongest one offered. */
export function chooseChallenge(
  challenges: readonly DigestChallenge[],
  wanted?: Algorithm,
): { challenge: DigestChallenge; algorithm: Algorithm } | undefined {
  for (const algorithm of wanted ? [wanted] : PREFERENCE) {
    const challenge = challenges.find((c) => parseAlgorithm(c.algorithm) === algorithm);
    if (challenge) return { challenge, algorithm };
  }
  return undefined;
}

/** auth where offered, else auth-int; undefined for a challenge without qop (RFC 2069). */
export function chooseQop(challenge: DigestChallenge): Qop | undefined {
  if (challenge.qops.includes("auth")) return "auth";
  if (challenge.qops.includes("auth-int")) return "auth-int";
  return undefined;
}

export interface DigestRequest {
  method: string;
  /** The request-target, which the uri directive repeats. */
  uri: string;
  body?: string;
}

export interface AnswerOptions {
  username: string;
  password: string;
  /** Default: chooseQop; null forces the RFC 2069 form. */
  qop?: Qop | null;
  nc?: number;
  cnonce?: string;
  /** Default "rfc7616"; "spec" still sends qop, nc and cnonce, only the response leaves them out. */
  formula?: Formula;
}

export interface DigestAnswer {
  directives: Directive[];
  /** What the response was computed from: rspauth is checked against it. */
  input: ResponseInput;
}

export function answerChallenge(
  challenge: DigestChallenge,
  algorithm: Algorithm,
  request: DigestRequest,
  options: AnswerOptions,
): DigestAnswer {
  const realm = challenge.params.get("realm") ?? "";
  const qop = options.qop === null ? undefined : (options.qop ?? chooseQop(challenge));
  const hash = hashOf(algorithm);
  const input: ResponseInput = {
    algorithm,
    ha1: hashA1(hash, options.username, realm, options.password),
    nonce: challenge.params.get("nonce") ?? "",
    method: request.method,
    uri: request.uri,
    qop,
    nc: qop ? formatNc(options.nc ?? 1) : undefined,
    cnonce: qop ? (options.cnonce ?? freshCnonce()) : undefined,
    body: request.body,
    formula: options.formula,
  };
  const username = challenge.userhash ? hashUsername(hash, options.username, realm) : options.username;
  const directives: Directive[] = [
    { name: "username", value: username, quoted: true },
    { name: "realm", value: realm, quoted: true },
    { name: "nonce", value: input.nonce, quoted: true },
    { name: "uri", value: request.uri, quoted: true },
    { name: "algorithm", value: algorithm, quoted: false },
    { name: "response", value: responseDigest(input), quoted: true },
  ];
  if (qop) {
    directives.push(
      { name: "qop", value: qop, quoted: false },
      { name: "nc", value: input.nc ?? "", quoted: false },
      { name: "cnonce", value: input.cnonce ?? "", quoted: true },
    );
  }
  const opaque = challenge.params.get("opaque");
  if (opaque !== undefined) directives.push({ name: "opaque", value: opaque, quoted: true });
  if (challenge.userhash) directives.push({ name: "userhash", value: "true", quoted: false });
  return { directives, input };
}

export function authorizationOf(directives: readonly Directive[]): string {
  return `Digest ${formatParams(directives)}`;
}

/**
 * What is wrong with an Authentication-Info field for this answer (RFC 7616 §3.5), on a reply
 * with this body (which auth-int's rspauth covers); empty when it proves the server.
 */
export function authenticationInfoProblems(
  field: string | undefined,
  answer: DigestAnswer,
  replyBody: string | Buffer,
): string[] {
  if (field === undefined) return ["no Authentication-Info header"];
  const parsed = parseParamList(field);
  if (!parsed.ok) return [`an Authentication-Info that cannot be parsed (${parsed.error})`];
  const info = parsed.value;
  const problems: string[] = [];
  const expected = rspauthDigest(answer.input, replyBody);
  // RFC 7616's rspauth is right whichever formula got the answer in (the spec's, where only it did).
  const rfc7616 = { ...answer.input, formula: "rfc7616" } as const;
  const rspauth = info.get("rspauth");
  if (![expected, rspauthDigest(rfc7616, replyBody)].includes(rspauth?.toLowerCase() ?? "")) {
    const overRequest =
      answer.input.qop === "auth-int" && rspauth?.toLowerCase() === rspauthDigest(rfc7616, answer.input.body ?? "");
    problems.push(
      `rspauth ${rspauth ?? "(absent)"} instead of ${expected}${overRequest ? " (it hashes the request's body; with auth-int, rspauth hashes the reply's, RFC 2617 §3.2.3)" : ""}`,
    );
  }
  for (const [name, sent] of [
    ["qop", answer.input.qop],
    ["cnonce", answer.input.cnonce],
    ["nc", answer.input.nc],
  ] as const) {
    if (sent !== undefined && info.get(name)?.toLowerCase() !== sent.toLowerCase()) {
      problems.push(`${name} ${info.get(name) ?? "(absent)"} where the request sent ${sent}`);
    }
  }
  return problems;
}

export function withoutDirectives(directives: readonly Directive[], ...names: string[]): Directive[] {
  return directives.filter((d) => !names.includes(d.name));
}

export function withDirective(directives: readonly Directive[], name: string, value: string): Directive[] {
  return directives.map((d) => (d.name === name ? { ...d, value } : d));
}
