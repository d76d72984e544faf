/**
 * What the digest steps do beyond one request: a login a scenario needs, flawed requests built
 * on an accepted one, the checks of a new challenge, and using a nonce up as the policy allows.
 */

import { type Answered, type Exchange, headerOf } from "../../harness/evidence/exchange.ts";
import { parseChallenges, parseCredentials } from "../../lib/auth-params.ts";
import type { Algorithm } from "../../lib/digest-math.ts";
import { expectThat, fail } from "../support/expect.ts";
import type { SxdWorld } from "../support/world.ts";
import {
  answerChallenge,
  chooseChallenge,
  type DigestAnswer,
  type DigestChallenge,
  digestChallenges,
} from "./digest-client.ts";
import { needLogins } from "./each-algorithm.ts";
import type { Flawed } from "./flaws.ts";
import { describePolicy, describeUse, nonceAllowance } from "./nonce-policy.ts";
import {
  answering,
  challengeFrom,
  challengesOf,
  type Login,
  type LoginRequest,
  logIn,
  loginHints,
  remember,
  sendAnswer,
  sendAuthorization,
  state,
} from "./session.ts";

export const NEEDS_LOGIN = "needs a login: see DIG-4";

export const CONTROL_REFUSED = "the same request without the defect was refused too: see DIG-4";

/** The most uses of one nonce sxd makes to use it up (DIG-9, DIG-10). */
export const MOST_USES = 100;

/** The longest nonce lifetime sxd waits out to see a nonce expire (DIG-10). */
export const LONGEST_WAIT_S = 60;

/** A login the scenario needs before it can check anything: not run, with `reason`, where none gets in. */
export async function needLogin(
  world: SxdWorld,
  reason: string,
  wanted: LoginRequest = {},
): Promise<Login | "skipped"> {
  const result = await logIn(world, wanted);
  if (result.kind === "unanswerable") return world.notRun(result.reason);
  if (result.kind === "refused")
    return world.notRun(`${reason} (valid credentials got status ${result.reply.response.status})`);
  return result.login;
}

/** Valid credentials must get in: DIG-4's own check, with hints for a person where they do not. */
export async function expectLogin(world: SxdWorld, wanted: LoginRequest = {}): Promise<"skipped" | undefined> {
  const result = await logIn(world, wanted);
  if (result.kind === "unanswerable") return world.notRun(result.reason);
  if (result.kind === "refused") {
    const how = wanted.formula === "rfc7616" ? "computed as RFC 7616 says" : "in either formula";
    fail(
      `200 for valid credentials (${how})`,
      `status ${result.reply.response.status}; ${loginHints(world)}`,
      result.reply,
    );
  }
  return undefined;
}

/** Sends, for each login, the same request over a new challenge with one flaw. */
export async function sendFlawed(world: SxdWorld, build: (login: Login) => Flawed): Promise<"skipped" | undefined> {
  const digest = state(world);
  let notApplicable: string | undefined;
  for (const login of digest.controls) {
    await challengeFrom(world);
    const flawed = build(login);
    if ("notApplicable" in flawed) {
      notApplicable = flawed.notApplicable;
      continue;
    }
    const reply = await sendAuthorization(world, flawed.authorization, flawed.body ?? login.body);
    digest.flawed.push({ login, reply });
  }
  if (digest.flawed.length > 0) return undefined;
  return notApplicable === undefined ? world.notRun(CONTROL_REFUSED) : world.notApplicable(notApplicable);
}

/**
 * The login's request again, over the current challenge: with nc 1 on a nonce not used yet,
 * as the login sent it, so that only the flaw differs; past every nc used on a nonce the
 * server handed out again (some issue one nonce until it is used), so that it is no replay.
 */
export function answeringLike(world: SxdWorld, login: Login) {
  const { logins, challenges } = state(world);
  const nonce = chooseChallenge(challenges, login.algorithm)?.challenge.params.get("nonce");
  const used = logins
    .filter((l) => l.answer.input.nonce === nonce)
    .map((l) => Number.parseInt(l.answer.input.nc ?? "1", 16));
  return answering(world, login.algorithm, {
    body: login.body,
    qop: login.qop,
    formula: login.formula,
    nc: used.length === 0 ? 1 : Math.max(...used) + 1,
  });
}

export function flawedReplies(world: SxdWorld) {
  const { flawed } = state(world);
  if (flawed.length === 0) throw new Error("no flawed request was sent before in this scenario");
  return flawed;
}

export const form = (login: Login) =>
  `${login.algorithm}, ${login.qop === null ? "no qop" : `qop=${login.qop}`}, ${login.formula === "spec" ? "the spec's literal formula" : "RFC 7616's formula"}`;

/** The nonce of the Digest credentials an exchange sent, if any: a new challenge must not repeat it. */
export function answeredNonce(exchange: Exchange): string | undefined {
  const authorization = Object.entries(exchange.requestHeaders).find(
    ([name]) => name.toLowerCase() === "authorization",
  );
  const parsed = authorization === undefined ? undefined : parseCredentials(authorization[1]);
  return parsed?.ok && parsed.value.scheme.toLowerCase() === "digest" ? parsed.value.params.get("nonce") : undefined;
}

/**
 * A challenge of `algorithm` whose nonce no request of the scenario has answered, for a flawed
 * request to answer: the one the last reply carried, where it was a 401 with such a challenge
 * (a refusal comes with a new challenge, RFC 7616 §3.3), else a fresh one asked for. Where the
 * server hands that nonce out again, the flawed request counts past every nc used on it.
 */
export async function challengeOfItsOwn(world: SxdWorld, algorithm: Algorithm): Promise<void> {
  const last = world.http.exchanges.at(-1);
  if (last?.response?.status === 401) {
    const parsed = digestChallenges(headerOf(last as Answered, "www-authenticate"));
    const nonce = parsed.ok ? chooseChallenge(parsed.value, algorithm)?.challenge.params.get("nonce") : undefined;
    if (nonce !== undefined && parsed.ok && !world.http.exchanges.some((e) => answeredNonce(e) === nonce)) {
      remember(world, parsed.value);
      return;
    }
  }
  await challengeFrom(world);
}

/** The reply's challenges, which must carry nonces other than the one answered, so the client can try again. */
export function newChallenges(reply: Answered, answered: string | undefined): DigestChallenge[] {
  const challenges = challengesOf(reply);
  expectThat(
    challenges.length > 0 && challenges.every((c) => c.params.has("nonce")),
    "a Digest challenge with a nonce, so the client can try again",
    challenges.length > 0 ? "a challenge without a nonce" : "none",
    reply,
  );
  expectThat(
    challenges.every((c) => c.params.get("nonce") !== answered),
    "a nonce other than the one answered",
    `the same nonce ${answered}`,
    reply,
  );
  return challenges;
}

/**
 * Uses a nonce of each algorithm offered up to the limit the description states, each from a
 * login of its own: the stated number of uses with rising counts, or one use where each count
 * is taken once ("nc-once"). The last use of each is kept (usedUp), for the use beyond the
 * limit. A use within the limit that is refused fails, naming which use of how many it was.
 */
export async function useNoncesUp(world: SxdWorld): Promise<"skipped" | undefined> {
  const policy = world.target.digest.noncePolicy;
  const allowance = nonceAllowance(policy);
  const uses = allowance.kind === "uses" ? allowance.uses : 1;
  if (uses > MOST_USES)
    return world.notRun(
      `${describePolicy(policy)} allows ${uses} uses, more than the ${MOST_USES} sxd spends on a nonce`,
    );
  const logins = await needLogins(world, CONTROL_REFUSED);
  if (logins === "skipped") return logins;
  for (const login of logins) {
    let last = login;
    for (let use = 2; use <= uses; use++) {
      const answer = nextUseOf(world, last);
      const reply = await sendAnswer(world, answer, login.body);
      expectWithinLimit(world, reply, answer, `with a rising nc (${login.algorithm})`);
      last = { ...login, answer, reply };
      state(world).logins.push(last);
    }
    state(world).usedUp.push(last);
  }
  return undefined;
}

/** A use the stated policy allows must get in; the message says which use of how many it was. */
export function expectWithinLimit(world: SxdWorld, reply: Answered, answer: DigestAnswer, how: string): void {
  expectThat(
    reply.response.status === 200,
    `200 for ${describeUse(world.target.digest.noncePolicy, useOf(world, answer))}, ${how}`,
    `status ${reply.response.status} (is the description right?)`,
    reply,
  );
}

/** Which use of its nonce the next answer on it is: the accepted uses of that nonce so far, and it. */
export function useOf(world: SxdWorld, answer: DigestAnswer): number {
  return state(world).logins.filter((login) => login.answer.input.nonce === answer.input.nonce).length + 1;
}

/** The login's request again on its own nonce, with the nonce count past every one used on it. */
export function nextUseOf(world: SxdWorld, login: Login): DigestAnswer {
  const nonce = login.answer.input.nonce;
  const counts = state(world)
    .logins.filter((l) => l.answer.input.nonce === nonce)
    .map((l) => Number.parseInt(l.answer.input.nc ?? "1", 16));
  const a = answering(world, login.algorithm, {
    body: login.body,
    qop: login.qop,
    formula: login.formula,
    nc: Math.max(1, ...counts) + 1,
    challenge: login.challenge,
  });
  return answerChallenge(a.challenge, a.algorithm, a.request, a.credentials);
}

/** The directives RFC 7616 §3.3 writes as quoted strings in a challenge, and those it writes as tokens. */
const CHALLENGE_QUOTED = ["realm", "domain", "nonce", "opaque", "qop"];
const CHALLENGE_TOKENS = ["stale", "algorithm"];
/** The algorithm names as the IANA registry spells them (RFC 7616 §6.1). */
const REGISTERED = ["MD5", "MD5-sess", "SHA-256", "SHA-256-sess", "SHA-512-256", "SHA-512-256-sess"];

/**
 * DIG-14: what in a WWW-Authenticate field's Digest challenges is not written as RFC 7616
 * §3.3 writes it: a directive quoted that is a token, or the reverse, and an algorithm not
 * spelled as registered. Real clients match these exactly (a quoted, lower-case `md5` locks
 * some of them out), so the row is a SHOULD on the form, beside DIG-1 on the content.
 */
export function challengeFormProblems(field: string | readonly string[]): string[] {
  const parsed = parseChallenges(field);
  if (!parsed.ok) return [`the challenges cannot be read: ${parsed.error}`];
  return parsed.value
    .filter((challenge) => challenge.scheme.toLowerCase() === "digest")
    .flatMap((challenge, index) => {
      const named = (names: string[], quoted: boolean) =>
        names.filter((name) => challenge.params.has(name) && challenge.quoted.has(name) !== quoted);
      const where = `challenge ${index + 1}`;
      const algorithm = challenge.params.get("algorithm");
      const registered = REGISTERED.find((name) => name.toLowerCase() === algorithm?.toLowerCase());
      return [
        ...named(CHALLENGE_QUOTED, true).map((name) => `${where}: ${name} is not a quoted string`),
        ...named(CHALLENGE_TOKENS, false).map(
          (name) => `${where}: ${name} is quoted, though §3.3 writes it as a token`,
        ),
        ...(algorithm !== undefined && !REGISTERED.includes(algorithm)
          ? [
              `${where}: algorithm ${algorithm} is ${registered ? `not spelled as registered (${registered})` : "no registered name"}`,
            ]
          : []),
      ];
    });
}
