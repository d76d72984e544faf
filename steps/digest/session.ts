/**
 * One scenario's dealings with the protected resource: the challenges seen, the logins that
 * got in, the cookie jar the description may turn on, and the login itself, which finds the
 * form the server takes (RFC 7616's formula, else the spec's literal one) and retries a
 * stale nonce with the same computation (RFC 7616 §3.3).
 */

import { stated } from "../../harness/description/target.ts";
import { type Answered, headerOf } from "../../harness/evidence/exchange.ts";
import { DescriptionUnfit } from "../../harness/judging/step-errors.ts";
import type { Algorithm, Formula, Qop } from "../../lib/digest-math.ts";
import { fail } from "../support/expect.ts";
import type { SxdWorld } from "../support/world.ts";
import {
  answerableAlgorithms,
  answerChallenge,
  authorizationOf,
  chooseChallenge,
  type DigestAnswer,
  type DigestChallenge,
  digestChallenges,
} from "./digest-client.ts";
import type { Answering } from "./flaws.ts";

/** Valid credentials the server granted, which the negative cases change one thing of. */
export interface Login {
  algorithm: Algorithm;
  /** The challenge answered: the nonce's later uses answer it again. */
  challenge: DigestChallenge;
  formula: Formula;
  /** null: the RFC 2069 form, without qop. */
  qop: Qop | null;
  body?: string;
  answer: DigestAnswer;
  reply: Answered;
}

export interface DigestState {
  challenges: DigestChallenge[];
  /** Every algorithm any challenge of this scenario offered, as named. */
  offered: Set<string>;
  answer?: DigestAnswer;
  /** The Authorization last sent, for a replay. */
  authorization?: string;
  body?: string;
  /** The formula in which the server granted access, once known, by the qop asked for ("" for the default). */
  formulas: Map<string, Formula>;
  logins: Login[];
  /** Each algorithm's login attempt that DIG-4 or DIG-8 judges, with the qop asked for. */
  tried: Array<{ algorithm: Algorithm; qop?: Qop; reply: Answered }>;
  /** The last accepted use of each nonce used up (DIG-9, DIG-10): its next use must be refused. */
  usedUp: Login[];
  /** The logins a control step made: the flawed requests are built on these. */
  controls: Login[];
  /** The replies to the flawed requests of the scenario, with the login each was built on. */
  flawed: Array<{ login: Login; reply: Answered }>;
  /** Cookies the protected resource set: kept and sent back only where digest.cookies is true. */
  cookies: Map<string, string>;
  /** The protected path answered something but 404 in this scenario: it is the server's resource. */
  pathAnswered: boolean;
}

const states = new WeakMap<SxdWorld, DigestState>();

export function state(world: SxdWorld): DigestState {
  let found = states.get(world);
  if (!found) {
    found = {
      challenges: [],
      offered: new Set(),
      formulas: new Map(),
      logins: [],
      tried: [],
      usedUp: [],
      controls: [],
      flawed: [],
      cookies: new Map(),
      pathAnswered: false,
    };
    states.set(world, found);
  }
  return found;
}

export function protectedUrl(world: SxdWorld): string {
  // Asked also where the description names no user (@no-credentials): the path is all it needs.
  return `${world.target.baseUrl}${world.target.digest.path ?? stated(world.target, "digest").path}`;
}

/** The request-target the uri directive must repeat. */
function requestTarget(world: SxdWorld): string {
  const url = new URL(protectedUrl(world));
  return `${url.pathname}${url.search}`;
}

/** A request to the protected resource, with the cookie jar where the description turns it on. */
export async function sendProtected(
  world: SxdWorld,
  options: { authorization?: string; body?: string; note?: string } = {},
): Promise<Answered> {
  const digest = state(world);
  const headers: Record<string, string> = {};
  if (options.authorization !== undefined) headers.authorization = options.authorization;
  if (options.body !== undefined) headers["content-type"] = "application/xml";
  if (world.target.digest.cookies && digest.cookies.size > 0) {
    headers.cookie = [...digest.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
  const url = protectedUrl(world);
  const reply = await world.http.send("GET", url, { headers, body: options.body, note: options.note });
  // A 404 before the path answered anything else: the description names a path the server
  // never had, and its rows are not run. Once it answered, a 404 is the server's to answer for.
  if (reply.response.status === 404 && !digest.pathAnswered) {
    throw new DescriptionUnfit(
      "digest.path",
      `GET ${url}`,
      "state the path of a resource the server protects with Digest",
    );
  }
  digest.pathAnswered = true;
  for (const cookie of reply.response.headers["set-cookie"] ?? []) {
    const pair = /^\s*([^=;\s]+)=([^;]*)/.exec(cookie);
    if (pair) digest.cookies.set(pair[1], pair[2]);
  }
  return reply;
}

export function challengesOf(reply: Answered): DigestChallenge[] {
  const parsed = digestChallenges(headerOf(reply, "www-authenticate"));
  if (!parsed.ok) fail("WWW-Authenticate challenges in the RFC 9110 syntax", parsed.error, reply);
  return parsed.value;
}

/** The challenges to answer next, and the algorithms they offer. */
export function remember(world: SxdWorld, challenges: DigestChallenge[]): void {
  const digest = state(world);
  digest.challenges = challenges;
  for (const c of challenges) digest.offered.add(c.algorithm);
}

/** A fresh challenge; a reply without one fails the step. */
export async function challengeFrom(world: SxdWorld): Promise<void> {
  const reply = await sendProtected(world);
  const challenges = challengesOf(reply);
  if (challenges.length === 0) fail("a WWW-Authenticate Digest challenge", "none", reply);
  remember(world, challenges);
}

export async function sendAuthorization(
  world: SxdWorld,
  authorization: string,
  body?: string,
  note?: string,
): Promise<Answered> {
  const digest = state(world);
  digest.authorization = authorization;
  digest.body = body;
  return sendProtected(world, { authorization, body, note });
}

export async function sendAnswer(world: SxdWorld, answer: DigestAnswer, body?: string, note?: string) {
  state(world).answer = answer;
  return sendAuthorization(world, authorizationOf(answer.directives), body, note);
}

export const granted = (reply: Answered) => reply.response.status >= 200 && reply.response.status < 300;

/** How to answer the current challenges (or the one given) with the description's user. */
export function answering(
  world: SxdWorld,
  algorithm: Algorithm,
  options: { body?: string; qop?: Qop | null; nc?: number; formula?: Formula; challenge?: DigestChallenge },
): Answering {
  const chosen = options.challenge
    ? { challenge: options.challenge, algorithm }
    : chooseChallenge(state(world).challenges, algorithm);
  if (!chosen) fail(`a Digest challenge with ${algorithm}, as the first challenge offered`, "none", world.reply);
  const { username, password } = stated(world.target, "digest");
  return {
    ...chosen,
    request: { method: "GET", uri: requestTarget(world), body: options.body },
    credentials: { username, password, formula: options.formula, qop: options.qop, nc: options.nc ?? 1 },
    offered: [...state(world).offered],
  };
}

export interface LoginRequest {
  algorithm?: Algorithm;
  qop?: Qop;
  body?: string;
  /** Only this formula, no retry with the other. */
  formula?: Formula;
}

export type LoginResult =
  | { kind: "granted"; login: Login }
  | { kind: "refused"; reply: Answered }
  /** The challenges offer nothing the suite can answer: the suite's limit, not the target's failure. */
  | { kind: "unanswerable"; reason: string };

const SPEC_RETRY =
  "retry with the spec's literal formula, H(H(A1):nonce:H(method:uri)), which leaves nc, cnonce, qop and the " +
  "body out of the digest (they are still sent, as the spec lists them): RFC 7616's digest was refused with status";
const STALE_RETRY =
  "retry with the nonce of the stale=true challenge, the digest computed the same way (RFC 7616 §3.3)";
/** A server under load may let a nonce age between challenge and answer; a few fresh nonces are enough. */
const STALE_RETRIES = 2;

function staleChallenges(reply: Answered): DigestChallenge[] | undefined {
  if (reply.response.status !== 401) return undefined;
  const parsed = digestChallenges(headerOf(reply, "www-authenticate"));
  return parsed.ok && parsed.value.some((c) => c.stale) ? parsed.value : undefined;
}

/**
 * Logs in with valid credentials over a fresh challenge. SPEC.md shows only
 * response = H(A1:nonce:A2) and leaves open how nc, cnonce, qop and the body enter it, so
 * until the server has granted access once, RFC 7616's formula goes first and, if refused,
 * the spec's literal one over a fresh challenge, marked in the transcript as that retry.
 * The formula that gets in is kept for the rest of the scenario, for each qop apart: a
 * server may take RFC 7616's for auth and leave the body out for auth-int.
 */
export async function logIn(world: SxdWorld, wanted: LoginRequest = {}): Promise<LoginResult> {
  const digest = state(world);
  const first = await sendProtected(world);
  const offered = challengesOf(first);
  if (offered.length === 0) {
    return { kind: "unanswerable", reason: "the protected resource sent no Digest challenge to answer: see DIG-1" };
  }
  remember(world, offered);
  const algorithm = wanted.algorithm ?? answerableAlgorithms(digest.challenges)[0];
  if (!algorithm || !chooseChallenge(digest.challenges, algorithm)) {
    return { kind: "unanswerable", reason: unanswerableReason(digest.challenges) };
  }
  const known = digest.formulas.get(wanted.qop ?? "");
  const formulas: Formula[] = wanted.formula ? [wanted.formula] : known ? [known] : ["rfc7616", "spec"];
  let reply: Answered | undefined;
  for (const formula of formulas) {
    let note: string | undefined;
    if (reply) {
      note = `${SPEC_RETRY} ${reply.response.status}`;
      await challengeFrom(world);
    }
    const send = () => {
      const a = answering(world, algorithm, { body: wanted.body, qop: wanted.qop, formula });
      const answer = answerChallenge(a.challenge, a.algorithm, a.request, a.credentials);
      return { answer, challenge: a.challenge, sending: sendAnswer(world, answer, wanted.body, note) };
    };
    let attempt = send();
    reply = await attempt.sending;
    for (let retry = 0; retry < STALE_RETRIES; retry++) {
      const fresh = staleChallenges(reply);
      if (!fresh) break;
      remember(world, fresh);
      note = STALE_RETRY;
      attempt = send();
      reply = await attempt.sending;
    }
    if (granted(reply)) {
      digest.formulas.set(wanted.qop ?? "", formula);
      const login: Login = {
        algorithm,
        challenge: attempt.challenge,
        formula,
        qop: attempt.answer.input.qop ?? null,
        body: wanted.body,
        answer: attempt.answer,
        reply,
      };
      digest.logins.push(login);
      return { kind: "granted", login };
    }
  }
  return { kind: "refused", reply: reply as Answered };
}

/** Why no login can be tried where the challenges offer no algorithm sxd answers. */
export function unanswerableReason(challenges: readonly DigestChallenge[]): string {
  const named = challenges.map((c) => c.algorithm).join(", ");
  return `the server offers only algorithms sxd cannot answer (${named}); sxd answers those RFC 7616 registers`;
}

/** Why valid credentials may have been refused, for a person to act on. */
export function loginHints(world: SxdWorld): string {
  const others = state(world).logins.map((login) => `${login.algorithm}, ${login.qop ?? "no qop"}`);
  const hints = [
    others.length > 0
      ? `the same user got in with ${[...new Set(others)].join("; ")} in this scenario`
      : "check digest.username and digest.password in the target description (the digest is computed from them)",
  ];
  if (state(world).cookies.size > 0 && !world.target.digest.cookies) {
    const names = [...state(world).cookies.keys()].join(", ");
    hints.push(
      `the server set a cookie (${names}) that sxd did not send back; if it keeps the nonce in a session, ` +
        "set digest.cookies to true",
    );
  }
  return hints.join("; ");
}
