/**
 * Steps of the refusals (DIG-6, DIG-8, DIG-12): each wrong answer is sent only after the same
 * answer without the flaw got in, in the same scenario, and differs from it by the flaw alone;
 * where the controls log in with each algorithm offered, a flawed request is built on each.
 */

import type { Qop } from "../../lib/digest-math.ts";
import { Given, Then, When } from "../support/cucumber.ts";
import { expectThat } from "../support/expect.ts";
import type { SxdWorld } from "../support/world.ts";
import {
  answeredNonce,
  answeringLike,
  CONTROL_REFUSED,
  flawedReplies,
  form,
  newChallenges,
  sendFlawed,
} from "./checks.ts";
import { answerableAlgorithms, answerChallenge, authorizationOf } from "./digest-client.ts";
import { needLogins, tryEach } from "./each-algorithm.ts";
import { DEFECTS, MISMATCHES } from "./flaws.ts";
import { answering, challengesOf, granted, sendAuthorization, state } from "./session.ts";

/** The controls: the same requests without the flaw, with each algorithm offered, which must get in. */
async function grantedWithEach(world: SxdWorld, wanted: { qop?: Qop; body?: string } = {}) {
  const logins = await needLogins(world, CONTROL_REFUSED, wanted);
  if (logins === "skipped") return logins;
  state(world).controls.push(...logins);
  return undefined;
}

Given("the client was granted access with each algorithm offered", async function (this: SxdWorld) {
  return grantedWithEach(this);
});

When(
  /^the client answers a new challenge with (.+) but otherwise the same credentials$/,
  async function (this: SxdWorld, flaw: string) {
    const build = MISMATCHES[flaw] ?? DEFECTS[flaw];
    if (!build) throw new Error(`unknown credential flaw "${flaw}"`);
    return sendFlawed(this, (login) => build(answeringLike(this, login)));
  },
);

When("the client answers it with a wrong secret", async function (this: SxdWorld) {
  const [algorithm] = answerableAlgorithms(state(this).challenges);
  if (!algorithm) return this.notRun("the server offers only algorithms sxd cannot answer");
  const flawed = MISMATCHES["a wrong secret"](answering(this, algorithm, {}));
  if ("authorization" in flawed) await sendAuthorization(this, flawed.authorization);
  return undefined;
});

Then("the changed body gets no access", function (this: SxdWorld) {
  for (const { login, reply } of flawedReplies(this)) {
    const unprotected =
      login.formula === "spec"
        ? "; the server took auth-int only with the spec's literal formula, which leaves the body out of the digest: it offers auth-int and does not protect the body"
        : "";
    expectThat(
      !granted(reply),
      `no access for a body other than the one the auth-int digest covers (${form(login)})`,
      `status ${reply.response.status}${unprotected}`,
      reply,
    );
  }
});

Then("none of these requests gets access", function (this: SxdWorld) {
  for (const { login, reply } of flawedReplies(this)) {
    expectThat(
      !granted(reply),
      `no access, where the same request without the flaw (${form(login)}) got in`,
      `status ${reply.response.status}`,
      reply,
    );
  }
});

Then("each of these requests gets one of {statuses}", function (this: SxdWorld, statuses: number[]) {
  for (const { login, reply } of flawedReplies(this)) {
    expectThat(
      statuses.includes(reply.response.status),
      `one of the statuses ${statuses.join(", ")} (built on ${form(login)})`,
      `status ${reply.response.status}`,
      reply,
    );
  }
});

Then("each of these requests gets 401 with a new Digest challenge", function (this: SxdWorld) {
  for (const { login, reply } of flawedReplies(this)) {
    expectThat(reply.response.status === 401, `status 401 (${form(login)})`, `status ${reply.response.status}`, reply);
    newChallenges(reply, answeredNonce(reply));
  }
});

Then("none of these challenges is marked stale", function (this: SxdWorld) {
  for (const { reply } of flawedReplies(this)) {
    const stale = challengesOf(reply).filter((c) => c.stale);
    expectThat(
      stale.length === 0,
      "no stale=true on a refused wrong digest: RFC 7616 §3.3 sets it only where the digest was right",
      "stale=true",
      reply,
    );
  }
});

/** The auth-int request, as a login with each algorithm: the scenario's formula, or both in turn. */
Given(
  "the client was granted access with qop auth-int for the body {string}, with each algorithm offered",
  async function (this: SxdWorld, body: string) {
    return grantedWithEach(this, { qop: "auth-int", body });
  },
);

When(
  "the client answers a challenge of each algorithm offered with qop auth-int for the body {string}",
  async function (this: SxdWorld, body: string) {
    // Each algorithm that got in without auth-int: a refusal with it is then about the body.
    const loggedIn = new Set(state(this).logins.map((login) => login.algorithm));
    return tryEach(this, { qop: "auth-int", body }, loggedIn);
  },
);

When(
  "the client answers a new challenge with the same credentials and digest but sends the body {string}",
  async function (this: SxdWorld, sent: string) {
    return sendFlawed(this, (login) => {
      const a = answeringLike(this, login);
      return {
        authorization: authorizationOf(answerChallenge(a.challenge, a.algorithm, a.request, a.credentials).directives),
        body: sent,
      };
    });
  },
);
