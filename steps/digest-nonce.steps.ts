/**
 * Steps of nonce use (DIG-9, DIG-10), staged as the target description states the server's
 * policy: uses of one nonce, a nonce count used once, a lifetime sxd can wait out.
 */

import { sleep } from "../harness/rate-limits.ts";
import { Given, Then, When } from "./support/cucumber.ts";
import {
  answeringLike,
  CONTROL_REFUSED,
  LONGEST_WAIT_S,
  MOST_USES,
  NO_LIMIT,
  needLogin,
  useNonceUp,
  useOfNonce,
} from "./support/digest-checks.ts";
import { answerableAlgorithms, answerChallenge } from "./support/digest-client.ts";
import {
  answering,
  challengeFrom,
  describePolicy,
  granted,
  nonceUses,
  sendAnswer,
  sendAuthorization,
  state,
} from "./support/digest-session.ts";
import { expectThat } from "./support/expect.ts";
import type { SxdWorld } from "./support/world.ts";

Given("the target limits how often a nonce may be used", function (this: SxdWorld) {
  const policy = this.target.digest.noncePolicy;
  return policy === undefined || policy === "unlimited" ? this.notApplicable(NO_LIMIT) : undefined;
});

Given("the target limits the number of uses of a nonce", function (this: SxdWorld) {
  return Number.isFinite(nonceUses(this))
    ? undefined
    : this.notApplicable(`the target description states no limit on the uses of a nonce (${describePolicy(this)})`);
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
    `no access: ${describePolicy(this)} is stated, and this was use ${useOfNonce(this)} of the nonce (the same nonce and nc as an accepted request)`,
    `status ${reply.response.status}`,
    reply,
  );
});

Then("the reply to the used-up nonce gets no access", function (this: SxdWorld) {
  const reply = this.reply;
  expectThat(
    !granted(reply),
    `no access: ${describePolicy(this)} is stated, and this was use ${useOfNonce(this)} of the nonce, with a higher nc`,
    `status ${reply.response.status}`,
    reply,
  );
});

Given("the server granted access to credentials without qop", async function (this: SxdWorld) {
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
  state(this).logins.push({ algorithm, formula: "rfc7616", qop: null, answer, reply });
  return undefined;
});

Given("a nonce the target no longer takes", { timeout: (LONGEST_WAIT_S + 30) * 1000 }, async function (this: SxdWorld) {
  const lifetime = this.target.digest.nonceLifetime;
  const waitable = lifetime !== undefined && lifetime <= LONGEST_WAIT_S;
  if (Number.isFinite(nonceUses(this)) && (nonceUses(this) <= MOST_USES || !waitable)) return useNonceUp(this);
  if (lifetime === undefined)
    return this.notApplicable(
      "the target description states neither a limit on the uses of a nonce nor a nonce lifetime",
    );
  if (!waitable)
    return this.notRun(
      `the target description states a nonce lifetime of ${lifetime} s, longer than the ${LONGEST_WAIT_S} s sxd waits within a run`,
    );
  const login = await needLogin(this, CONTROL_REFUSED);
  if (login === "skipped") return login;
  await sleep((lifetime + 1) * 1000);
  return undefined;
});
