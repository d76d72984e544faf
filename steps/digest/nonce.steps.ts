/**
 * Steps of nonce use (DIG-9, DIG-10), staged as the target description states the server's
 * policy: uses of one nonce, a nonce count used once, a lifetime sxd can wait out.
 */

import { sleep } from "../../harness/wire/rate-limits.ts";
import { Given, Then, When } from "../support/cucumber.ts";
import { expectThat } from "../support/expect.ts";
import type { SxdWorld } from "../support/world.ts";
import {
  answeringLike,
  CONTROL_REFUSED,
  expectWithinLimit,
  LONGEST_WAIT_S,
  MOST_USES,
  needLogin,
  useNonceUp,
  useOfNonce,
} from "./checks.ts";
import { answerableAlgorithms, answerChallenge } from "./digest-client.ts";
import {
  describePolicy,
  describeUse,
  nonceAllowance,
  nonceExpiry,
  STATE_NONCE_LIMITS,
  STATE_NONCE_POLICY,
} from "./nonce-policy.ts";
import { answering, challengeFrom, granted, sendAnswer, sendAuthorization, state } from "./session.ts";

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

Given("the client used a nonce as often as the target allows", async function (this: SxdWorld) {
  return useNonceUp(this);
});

When("the client sends the same Authorization again", async function (this: SxdWorld) {
  const { authorization, body } = state(this);
  if (!authorization) throw new Error("no Authorization was sent before in this scenario");
  await sendAuthorization(this, authorization, body);
});

When("the client answers the same challenge again with the next nonce count", async function (this: SxdWorld) {
  const last = state(this).logins.at(-1);
  if (!last) throw new Error("no login before in this scenario");
  const a = answeringLike(this, last);
  await sendAnswer(this, answerChallenge(a.challenge, a.algorithm, a.request, a.credentials));
});

Then("the replay gets no access", function (this: SxdWorld) {
  const reply = this.reply;
  expectThat(
    !granted(reply),
    `no access for the same Authorization as an accepted request (${state(this).answer?.input.qop ? "the same nonce and nc" : "without qop: the same nonce"}): this was ${describeUse(this.target.digest.noncePolicy, useOfNonce(this))}`,
    `status ${reply.response.status}`,
    reply,
  );
});

Then("the reply to the used-up nonce gets no access", function (this: SxdWorld) {
  const reply = this.reply;
  expectThat(
    !granted(reply),
    `no access for a used-up nonce, even with a higher nc: this was ${describeUse(this.target.digest.noncePolicy, useOfNonce(this))}`,
    `status ${reply.response.status}`,
    reply,
  );
});

Given(
  "the server granted access to credentials without qop as often as the target allows",
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
    const [algorithm] = answerableAlgorithms(state(this).challenges);
    if (!algorithm) return this.notRun("the server offers only algorithms sxd cannot answer");
    const a = answering(this, algorithm, { qop: null, formula: "rfc7616" });
    const answer = answerChallenge(a.challenge, a.algorithm, a.request, a.credentials);
    const reply = await sendAnswer(this, answer);
    if (!granted(reply))
      return this.notApplicable(
        "the server does not take credentials without qop (RFC 2069 form), as it should not where it offers qop",
      );
    const login = { algorithm, formula: "rfc7616" as const, qop: null, answer, reply };
    state(this).logins.push(login);
    for (let use = 2; use <= allowance.uses; use++) {
      const again = await sendAnswer(this, answer);
      expectWithinLimit(this, again, "the same Authorization without qop");
      state(this).logins.push({ ...login, reply: again });
    }
    return undefined;
  },
);

Given("a nonce the target no longer takes", { timeout: (LONGEST_WAIT_S + 30) * 1000 }, async function (this: SxdWorld) {
  const { noncePolicy, nonceLifetime } = this.target.digest;
  const allowance = nonceAllowance(noncePolicy);
  const expiry = nonceExpiry(nonceLifetime);
  const waitable = expiry.kind === "after" && expiry.seconds <= LONGEST_WAIT_S;
  if (allowance.kind === "uses" && (allowance.uses <= MOST_USES || !waitable)) return useNonceUp(this);
  if (expiry.kind === "never" && allowance.kind !== "unstated")
    return this.notApplicable(
      `the target description states that nonces never expire (digest.nonceLifetime "unlimited") and sets no limit on their uses (${describePolicy(noncePolicy)})`,
    );
  if (expiry.kind !== "after") return this.notRun(STATE_NONCE_LIMITS);
  if (!waitable)
    return this.notRun(
      `the target description states a nonce lifetime of ${expiry.seconds} s, longer than the ${LONGEST_WAIT_S} s sxd waits within a run`,
    );
  const login = await needLogin(this, CONTROL_REFUSED);
  if (login === "skipped") return login;
  await sleep((expiry.seconds + 1) * 1000);
  return undefined;
});
