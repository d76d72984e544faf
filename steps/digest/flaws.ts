/**
 * Deliberately wrong credentials. Each flaw starts from the answer the server just accepted
 * (same algorithm, qop and formula, over a new challenge) and changes one thing,
 * recomputing the digest where the flaw is in what the digest covers, so that the flaw, and
 * nothing else, is what the server must notice.
 */
import { randomBytes } from "node:crypto";
import { ALGORITHMS, type Algorithm, formatNc, hashOf, responseDigest } from "../../lib/digest-math.ts";
import { forgedTail } from "../support/tokens.ts";
import {
  type AnswerOptions,
  answerChallenge,
  authorizationOf,
  type DigestAnswer,
  type DigestChallenge,
  type DigestRequest,
  withDirective,
  withoutDirectives,
} from "./digest-client.ts";

export interface Answering {
  challenge: DigestChallenge;
  algorithm: Algorithm;
  request: DigestRequest;
  /** As the accepted answer had them: qop (null for the RFC 2069 form), formula, and an nc above any used. */
  credentials: AnswerOptions & { nc: number };
  /** Every algorithm the server's challenges offered, known to the suite or not. */
  offered: readonly string[];
}

/** The Authorization to send, or why the flaw does not apply to this server. */
export type Flawed = { authorization: string; body?: string } | { notApplicable: string };
type Build = (answering: Answering) => Flawed;

const answer = ({ challenge, algorithm, request, credentials }: Answering) =>
  answerChallenge(challenge, algorithm, request, credentials);

const sent = (directives: DigestAnswer["directives"]): Flawed => ({ authorization: authorizationOf(directives) });

function withParam(challenge: DigestChallenge, name: string, value: string): DigestChallenge {
  return { ...challenge, params: new Map([...challenge.params, [name, value]]) };
}

/** The same answer with a changed input and the digest recomputed to match it. */
function recomputed(base: DigestAnswer, changes: Record<string, string>): Flawed {
  const input = { ...base.input, ...changes };
  let directives = withDirective(base.directives, "response", responseDigest(input));
  for (const [name, value] of Object.entries(changes)) directives = withDirective(directives, name, value);
  return sent(directives);
}

const NO_QOP =
  "the server's challenge offers no qop (the RFC 2069 form), so there is no qop, nc or cnonce to leave out or alter";

/** A flaw in qop, nc or cnonce, which only a challenge with qop has. */
function withQop(build: Build): Build {
  return (a) => (a.credentials.qop === null ? { notApplicable: NO_QOP } : build(a));
}

/** Well-formed credentials that must not get access (DIG-6). */
export const MISMATCHES: Record<string, Build> = {
  "a wrong secret": (a) =>
    sent(answer({ ...a, credentials: { ...a.credentials, password: `${a.credentials.password}-not` } }).directives),
  "an unknown username": (a) =>
    sent(
      answer({ ...a, credentials: { ...a.credentials, username: `sxd-nobody-${randomBytes(4).toString("hex")}` } })
        .directives,
    ),
  "a random nonce the server never issued": (a) =>
    sent(
      answer({ ...a, challenge: withParam(a.challenge, "nonce", randomBytes(24).toString("base64url")) }).directives,
    ),
  "a nonce of the server's shape it never issued": (a) => {
    const nonce = forgedTail(a.challenge.params.get("nonce") ?? "");
    return sent(answer({ ...a, challenge: withParam(a.challenge, "nonce", nonce) }).directives);
  },
};

/** nc written otherwise than as eight hexadecimal digits, with a count above any used so far. */
const ncShapes: Record<string, (count: number) => string> = {
  "nc of one digit": (count) => (count % 16).toString(16),
  "nc of six digits": (count) => formatNc(count).slice(2),
  "nc of nine digits": (count) => `0${formatNc(count)}`,
  // 0000002g: a parser that stops at the first bad digit reads the count, not 0.
  "nc not hexadecimal": (count) => `${formatNc(count).slice(1)}g`,
};

/** A registered algorithm the challenges did not offer, computed correctly: its -sess twin where possible. */
function unofferedAlgorithm(a: Answering): Algorithm | undefined {
  const offered = new Set(a.offered.map((name) => name.toLowerCase()));
  const twin = (a.algorithm.endsWith("-sess") ? hashOf(a.algorithm) : `${a.algorithm}-sess`) as Algorithm;
  return [twin, ...ALGORITHMS].find((algorithm) => !offered.has(algorithm.toLowerCase()));
}

/** Malformed credentials (DIG-12): the name is the one an Examples table uses. */
export const DEFECTS: Record<string, Build> = {
  "no response": (a) => sent(withoutDirectives(answer(a).directives, "response")),
  "no username": (a) => sent(withoutDirectives(answer(a).directives, "username")),
  "no nonce": (a) => sent(withoutDirectives(answer(a).directives, "nonce")),
  "no uri": (a) => sent(withoutDirectives(answer(a).directives, "uri")),
  "no cnonce": withQop((a) => sent(withoutDirectives(answer(a).directives, "cnonce"))),
  "no nc": withQop((a) => sent(withoutDirectives(answer(a).directives, "nc"))),
  "no qop": withQop((a) => sent(answer({ ...a, credentials: { ...a.credentials, qop: null } }).directives)),
  ...Object.fromEntries(
    Object.entries(ncShapes).map(([name, shape]) => [
      name,
      withQop((a) => recomputed(answer(a), { nc: shape(a.credentials.nc) })),
    ]),
  ),
  "uri of another resource": (a) => {
    const other = `${a.request.uri}${a.request.uri.includes("?") ? "&" : "?"}sxd-other=1`;
    return recomputed(answer(a), { uri: other });
  },
  // The digest is computed as for the accepted qop: only the unknown value is wrong.
  "unknown qop": withQop((a) => recomputed(answer(a), { qop: "auth-conf" })),
  // The digest is the accepted algorithm's: a server that falls back to it would grant this.
  "unknown algorithm": (a) => sent(withDirective(answer(a).directives, "algorithm", "X-SXD-UNKNOWN")),
  "an algorithm not offered": (a) => {
    const algorithm = unofferedAlgorithm(a);
    if (!algorithm) return { notApplicable: "the server offers every algorithm RFC 7616 registers" };
    return sent(answer({ ...a, algorithm }).directives);
  },
  "another realm": (a) => {
    const realm = `${a.challenge.params.get("realm") ?? ""}-other`;
    return sent(answer({ ...a, challenge: withParam(a.challenge, "realm", realm) }).directives);
  },
  "unterminated quoted string": (a) => {
    const { directives } = answer(a);
    const response = directives.find((d) => d.name === "response")?.value ?? "";
    return { authorization: `${authorizationOf(withoutDirectives(directives, "response"))}, response="${response}` };
  },
};
