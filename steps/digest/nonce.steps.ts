/**
 * Steps of nonce use (DIG-9, DIG-10), staged as the target description states the server's
 * policy: uses of one nonce, a nonce count used once, a lifetime sxd can wait out; a nonce of
 * each algorithm offered, each from a login of its own, so one's uses spend nothing of another's.
 */

import { sleep } from "../../harness/wire/rate-limits.ts";
import { Given, Then, When } from "../support/cucumber.ts";
import { expectThat } from "../support/expect.ts";
import type { SxdWorld } from "../support/world.ts";
import {
  answeredNonce,
  CONTROL_REFUSED,
  expectWithinLimit,
  flawedReplies,
  LONGEST_WAIT_S,
  MOST_USES,
  newChallenges,
  nextUseOf,
  useNoncesUp,
  useOf,
} from "./checks.ts";
import { answerableAlgorithms, answerChallenge, authorizationOf } from "./digest-client.ts";
import { needLogins } from "./each-algorithm.ts";
import {
  describePolicy,
  describeUse,
  nonceAllowance,
  nonceExpiry,
  STATE_NONCE_LIMITS,
  STATE_NONCE_POLICY,
} from "./nonce-policy.ts";
import {
  answering,
  challengeFrom,
  granted,
  type Login,
  sendAnswer,
  sendAuthorization,
  state,
  unanswerableReason,
} from "./session.ts";

Given("the target limits how often a nonce may be used", function (this: SxdWorld) {
  const policy = this.target.digest.noncePolicy;
  const allowance = nonceAllowance(policy);
  if (allowance.kind === "unstated") return this.notRun(STATE_NONCE_POLICY);
  return allowance.kind === "unlimited"
    ? this.notApplicable(`the target description states no limit on nonces (${describePolicy(policy)})`)
    : undefined;
});

Given("the target limits the number of uses of a nonce", function (this: SxdWorld) {
  const policy = this.target.digest.noncePolicy;
  const allowance = nonceAllowance(policy);
  if (allowance.kind === "unstated") return this.notRun(STATE_NONCE_POLICY);
  return allowance.kind === "uses"
    ? undefined
    : this.notApplicable(
        `the target description states no limit on the number of uses of a nonce (${describePolicy(policy)})`,
      );
});

Given(
  "the client used a nonce of each algorithm offered as often as the target allows",
  async function (this: SxdWorld) {
    return useNoncesUp(this);
  },
);

/** The last accepted use of each nonce the scenario used up. */
function usedUp(world: SxdWorld): Login[] {
  const { usedUp } = state(world);
  if (usedUp.length === 0) throw new Error("no nonce was used up before in this scenario");
  return usedUp;
}

When("the client sends the last Authorization of each of those nonces again", async function (this: SxdWorld) {
  for (const login of usedUp(this)) {
    const reply = await sendAuthorization(this, authorizationOf(login.answer.directives), login.body);
    state(this).flawed.push({ login, reply });
  }
});

When("the client answers each of those nonces again with the next nonce count", async function (this: SxdWorld) {
  for (const login of usedUp(this)) {
    const reply = await sendAnswer(this, nextUseOf(this, login), login.body);
    state(this).flawed.push({ login, reply });
  }
});

/** Which use of its nonce the flawed request built on this login was, and of how many the policy allows. */
const useBeyond = (world: SxdWorld, login: Login) =>
  describeUse(world.target.digest.noncePolicy, useOf(world, login.answer));

Then("none of the replays gets access", function (this: SxdWorld) {
  for (const { login, reply } of flawedReplies(this)) {
    expectThat(
      !granted(reply),
      `no access for the same Authorization as an accepted request (${login.qop ? "the same nonce and nc" : "without qop: the same nonce"}, ${login.algorithm}): this was ${useBeyond(this, login)}`,
      `status ${reply.response.status}`,
      reply,
    );
  }
});

Then("none of the used-up nonces gets access", function (this: SxdWorld) {
  for (const { login, reply } of flawedReplies(this)) {
    expectThat(
      !granted(reply),
      `no access for a used-up nonce, even with a higher nc (${login.algorithm}): this was ${useBeyond(this, login)}`,
      `status ${reply.response.status}`,
      reply,
    );
  }
});

// DIG-10: stale=true says the digest was right and only the nonce aged (RFC 7616 §3.3).
Then("each of these challenges is marked stale", function (this: SxdWorld) {
  for (const { login, reply } of flawedReplies(this)) {
    const challenges = newChallenges(reply, answeredNonce(reply));
    expectThat(
      challenges.every((c) => c.stale),
      `stale=true in the challenge (RFC 7616 §3.3), for a right ${login.algorithm} digest on a nonce no longer usable`,
      challenges.map((c) => `stale=${c.params.get("stale") ?? "(absent)"}`).join(", "),
      reply,
    );
  }
});

Given(
  "the server granted access to credentials without qop, with each algorithm offered, as often as the target allows",
  async function (this: SxdWorld) {
    const policy = this.target.digest.noncePolicy;
    const allowance = nonceAllowance(policy);
    // Without qop there is no nonce count: a policy on counts alone cannot tell a replay from a new request.
    if (allowance.kind !== "uses")
      return this.notApplicable(
        `${describePolicy(policy)} limits nonce counts, and credentials without qop (RFC 2069 form) carry none`,
      );
    if (allowance.uses > MOST_USES)
      return this.notRun(
        `${describePolicy(policy)} allows ${allowance.uses} uses, more than the ${MOST_USES} sxd spends on a nonce`,
      );
    await challengeFrom(this);
    const algorithms = answerableAlgorithms(state(this).challenges);
    if (algorithms.length === 0) return this.notRun(unanswerableReason(state(this).challenges));
    const refused: string[] = [];
    for (const algorithm of algorithms) {
      if (algorithm !== algorithms[0]) await challengeFrom(this);
      const a = answering(this, algorithm, { qop: null, formula: "rfc7616" });
      const answer = answerChallenge(a.challenge, a.algorithm, a.request, a.credentials);
      const reply = await sendAnswer(this, answer);
      if (!granted(reply)) {
        refused.push(`${reply.response.status} with ${algorithm}`);
        continue;
      }
      const login = { algorithm, challenge: a.challenge, formula: "rfc7616" as const, qop: null, answer, reply };
      state(this).logins.push(login);
      for (let use = 2; use <= allowance.uses; use++) {
        const again = await sendAnswer(this, answer);
        expectWithinLimit(this, again, answer, `the same Authorization without qop (${algorithm})`);
        state(this).logins.push({ ...login, reply: again });
      }
      state(this).usedUp.push(login);
    }
    if (state(this).usedUp.length === 0)
      return this.notApplicable(
        "the server does not take credentials without qop (RFC 2069 form), as it should not where it offers qop",
      );
    if (refused.length > 0)
      this.observe(`not judged with each algorithm: credentials without qop got status ${refused.join(", ")}`);
    return undefined;
  },
);

Given(
  "a nonce of each algorithm offered that the target no longer takes",
  { timeout: (LONGEST_WAIT_S + 30) * 1000 },
  async function (this: SxdWorld) {
    const { noncePolicy, nonceLifetime } = this.target.digest;
    const allowance = nonceAllowance(noncePolicy);
    const expiry = nonceExpiry(nonceLifetime);
    const waitable = expiry.kind === "after" && expiry.seconds <= LONGEST_WAIT_S;
    if (allowance.kind === "uses" && (allowance.uses <= MOST_USES || !waitable)) return useNoncesUp(this);
    if (expiry.kind === "never" && allowance.kind !== "unstated")
      return this.notApplicable(
        `the target description states that nonces never expire (digest.nonceLifetime "unlimited") and sets no limit on their uses (${describePolicy(noncePolicy)})`,
      );
    if (expiry.kind !== "after") return this.notRun(STATE_NONCE_LIMITS);
    if (!waitable)
      return this.notRun(
        `the target description states a nonce lifetime of ${expiry.seconds} s, longer than the ${LONGEST_WAIT_S} s sxd waits within a run`,
      );
    const logins = await needLogins(this, CONTROL_REFUSED);
    if (logins === "skipped") return logins;
    state(this).usedUp.push(...logins);
    await sleep((expiry.seconds + 1) * 1000);
    return undefined;
  },
);
