/**
 * Deliberately wrong credentials. Each flaw starts from a correct answer and changes one
 * thing, recomputing the digest where the flaw is in what the digest covers, so that the
 * flaw, and nothing else, is what the server must notice.
 */
import { randomBytes } from "node:crypto";
import { type Algorithm, responseDigest } from "../../lib/digest.ts";
import {
  type AnswerOptions,
  answerChallenge,
  authorizationOf,
  type DigestAnswer,
  type DigestChallenge,
  type DigestRequest,
  withDirective,
  withoutDirectives,
} from "./digest.ts";

export interface Answering {
  challenge: DigestChallenge;
  algorithm: Algorithm;
  request: DigestRequest;
  credentials: AnswerOptions;
}

type Build = (answering: Answering) => string;

const answer = ({ challenge, algorithm, request, credentials }: Answering) =>
  answerChallenge(challenge, algorithm, request, credentials);

function withParam(challenge: DigestChallenge, name: string, value: string): DigestChallenge {
  return { ...challenge, params: new Map([...challenge.params, [name, value]]) };
}

/** The same answer with a changed input and the digest recomputed to match it. */
function recomputed(base: DigestAnswer, changes: Record<string, string>): string {
  const input = { ...base.input, ...changes };
  let directives = withDirective(base.directives, "response", responseDigest(input));
  for (const [name, value] of Object.entries(changes)) directives = withDirective(directives, name, value);
  return authorizationOf(directives);
}

/** Credentials that are well-formed but must not get access (DIG-6). */
export const MISMATCHES: Record<string, Build> = {
  "a wrong secret": (a) =>
    authorizationOf(
      answer({ ...a, credentials: { ...a.credentials, password: `${a.credentials.password}-not` } }).directives,
    ),
  "an unknown username": (a) =>
    authorizationOf(
      answer({ ...a, credentials: { ...a.credentials, username: `sxd-nobody-${randomBytes(4).toString("hex")}` } })
        .directives,
    ),
  "a nonce the server never issued": (a) =>
    authorizationOf(
      answer({ ...a, challenge: withParam(a.challenge, "nonce", randomBytes(24).toString("base64url")) }).directives,
    ),
};

/** Malformed credentials (DIG-12): the name is the one an Examples table uses. */
export const DEFECTS: Record<string, Build> = {
  "no response": (a) => authorizationOf(withoutDirectives(answer(a).directives, "response")),
  "no username": (a) => authorizationOf(withoutDirectives(answer(a).directives, "username")),
  "no nonce": (a) => authorizationOf(withoutDirectives(answer(a).directives, "nonce")),
  "no uri": (a) => authorizationOf(withoutDirectives(answer(a).directives, "uri")),
  "no cnonce": (a) => authorizationOf(withoutDirectives(answer(a).directives, "cnonce")),
  "no nc": (a) => authorizationOf(withoutDirectives(answer(a).directives, "nc")),
  "no qop": (a) => authorizationOf(answer({ ...a, credentials: { ...a.credentials, qop: null } }).directives),
  "nc of one digit": (a) => recomputed(answer(a), { nc: "1" }),
  "nc not hexadecimal": (a) => recomputed(answer(a), { nc: "0000000g" }),
  "uri of another resource": (a) => {
    const other = `${a.request.uri}${a.request.uri.includes("?") ? "&" : "?"}sxd-other=1`;
    return recomputed(answer(a), { uri: other });
  },
  // The digest is computed as for auth: only the unknown value is wrong.
  "unknown qop": (a) => recomputed(answer(a), { qop: "auth-conf" }),
  "unknown algorithm": (a) => authorizationOf(withDirective(answer(a).directives, "algorithm", "X-SXD-UNKNOWN")),
  "another realm": (a) => {
    const realm = `${a.challenge.params.get("realm") ?? ""}-other`;
    return authorizationOf(answer({ ...a, challenge: withParam(a.challenge, "realm", realm) }).directives);
  },
  "unterminated quoted string": (a) => {
    const { directives } = answer(a);
    const response = directives.find((d) => d.name === "response")?.value ?? "";
    const header = authorizationOf(withoutDirectives(directives, "response"));
    return `${header}, response="${response}`;
  },
};
