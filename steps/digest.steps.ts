/**
 * Steps of the digest rows (DIG-1..12): a client asks for the protected resource, answers
 * the challenge rightly or wrongly, and reads what the server says back. A wrong answer is
 * sent only after the same answer without the flaw got in, in the same scenario.
 */
import { Given, Then, When } from "@cucumber/cucumber";
import { parseChallenges, parseCredentials } from "../lib/auth-params.ts";
import type { Qop } from "../lib/digest.ts";
import { mediaTypeMatches } from "../lib/media-type.ts";
import {
  answerableAlgorithms,
  answerChallenge,
  authenticationInfoProblems,
  authorizationOf,
  type DigestChallenge,
} from "./support/digest.ts";
import { DEFECTS, type Flawed, MISMATCHES } from "./support/digest-flaws.ts";
import {
  answering,
  challengeFrom,
  challengesOf,
  describePolicy,
  granted,
  type Login,
  type LoginRequest,
  logIn,
  loginHints,
  nonceUses,
  sendAnswer,
  sendAuthorization,
  sendProtected,
  state,
} from "./support/digest-session.ts";
import { expectThat, fail } from "./support/expect.ts";
import { type Answered, headerOf } from "./support/http.ts";
import type { SxdWorld } from "./support/world.ts";

const NEEDS_LOGIN = "needs a login: see DIG-4";
const CONTROL_REFUSED = "the same request without the defect was refused too: see DIG-4";
/** The most uses of one nonce sxd makes to use it up (DIG-9, DIG-10). */
const MOST_USES = 100;
/** The longest nonce lifetime sxd waits out to see a nonce expire (DIG-10). */
const LONGEST_WAIT_S = 60;

/** A login the scenario needs before it can check anything: not run, with `reason`, where none gets in. */
async function needLogin(world: SxdWorld, reason: string, wanted: LoginRequest = {}): Promise<Login | "skipped"> {
  const result = await logIn(world, wanted);
  if (result.kind === "unanswerable") return world.notRun(result.reason);
  if (result.kind === "refused")
    return world.notRun(`${reason} (valid credentials got status ${result.reply.response.status})`);
  return result.login;
}

/** Valid credentials must get in: DIG-4's own check, with hints for a person where they do not. */
async function expectLogin(world: SxdWorld, wanted: LoginRequest = {}): Promise<"skipped" | undefined> {
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

When("the client requests the protected resource without credentials", async function (this: SxdWorld) {
  await sendProtected(this);
});

When(
  "the client requests the protected resource without credentials {int} times",
  async function (this: SxdWorld, times: number) {
    for (let i = 0; i < times; i++) await sendProtected(this);
  },
);

Given("a challenge from the protected resource", async function (this: SxdWorld) {
  await challengeFrom(this);
});

Given("the challenge offers qop auth-int", function (this: SxdWorld) {
  return state(this).challenges.some((c) => c.qops.includes("auth-int"))
    ? undefined
    : this.notApplicable("the challenge does not offer qop=auth-int");
});

When("the client answers it with valid credentials", async function (this: SxdWorld) {
  return expectLogin(this);
});

When("the client answers it with valid credentials computed as RFC 7616 says", async function (this: SxdWorld) {
  return expectLogin(this, { formula: "rfc7616" });
});

When(
  "the client answers a challenge of each algorithm offered with valid credentials",
  async function (this: SxdWorld) {
    const digest = state(this);
    const algorithms = answerableAlgorithms(digest.challenges);
    if (algorithms.length === 0) return expectLogin(this);
    for (const algorithm of algorithms) {
      const result = await logIn(this, { algorithm });
      digest.tried.push({ algorithm, reply: result.kind === "refused" ? result.reply : this.reply });
    }
    return undefined;
  },
);

Then("each of them is granted access, with a body of type {string}", function (this: SxdWorld, expected: string) {
  for (const { algorithm, reply } of state(this).tried) {
    expectThat(
      reply.response.status === 200,
      `status 200 for valid ${algorithm} credentials, an algorithm the challenge offered`,
      `status ${reply.response.status}; ${loginHints(this)}`,
      reply,
    );
    const type = headerOf(reply, "content-type");
    expectThat(
      mediaTypeMatches(type, expected),
      `Content-Type ${expected} (${algorithm})`,
      `Content-Type ${type ?? "(none)"}`,
      reply,
    );
  }
});

Then("the client is granted access", function (this: SxdWorld) {
  const reply = this.reply;
  expectThat(
    reply.response.status === 200,
    "status 200 for valid credentials",
    `status ${reply.response.status}; ${loginHints(this)}`,
    reply,
  );
});

Given("the client has logged in", async function (this: SxdWorld) {
  const login = await needLogin(this, NEEDS_LOGIN);
  return login === "skipped" ? login : undefined;
});

Given("the client has logged in with qop {word}", async function (this: SxdWorld, qop: string) {
  await challengeFrom(this);
  if (!state(this).challenges.some((c) => c.qops.includes(qop)))
    return this.notApplicable(`the challenge does not offer qop=${qop}`);
  const login = await needLogin(this, NEEDS_LOGIN, { qop: qop as Qop });
  return login === "skipped" ? login : undefined;
});

Given("the client was granted access with each algorithm offered", async function (this: SxdWorld) {
  await challengeFrom(this);
  const digest = state(this);
  const algorithms = answerableAlgorithms(digest.challenges);
  if (algorithms.length === 0) {
    const result = await logIn(this);
    return this.notRun(result.kind === "unanswerable" ? result.reason : CONTROL_REFUSED);
  }
  const statuses: number[] = [];
  for (const algorithm of algorithms) {
    const result = await logIn(this, { algorithm });
    if (result.kind === "granted") digest.controls.push(result.login);
    if (result.kind === "refused") statuses.push(result.reply.response.status);
  }
  return digest.controls.length > 0
    ? undefined
    : this.notRun(`${CONTROL_REFUSED} (valid credentials got status ${statuses.join(", ")})`);
});

/** Sends, for each login, the same request over a new challenge with one flaw. */
async function sendFlawed(world: SxdWorld, build: (login: Login) => Flawed): Promise<"skipped" | undefined> {
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

/** The login's request again, over the current challenge, with an nc above any used so far. */
function answeringLike(world: SxdWorld, login: Login) {
  const used = state(world).logins.map((l) => Number.parseInt(l.answer.input.nc ?? "1", 16));
  return answering(world, login.algorithm, {
    body: login.body,
    qop: login.qop,
    formula: login.formula,
    nc: Math.max(1, ...used) + 1,
  });
}

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

function flawedReplies(world: SxdWorld) {
  const { flawed } = state(world);
  if (flawed.length === 0) throw new Error("no flawed request was sent before in this scenario");
  return flawed;
}

const form = (login: Login) =>
  `${login.algorithm}, ${login.qop === null ? "no qop" : `qop=${login.qop}`}, ${login.formula === "spec" ? "the spec's literal formula" : "RFC 7616's formula"}`;

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
  for (const { reply } of flawedReplies(this)) {
    expectThat(reply.response.status === 401, "status 401", `status ${reply.response.status}`, reply);
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

/** The auth-int request, as a login: the scenario's formula, or both in turn. */
Given(
  "the client was granted access with qop auth-int for the body {string}",
  async function (this: SxdWorld, body: string) {
    const login = await needLogin(this, CONTROL_REFUSED, { qop: "auth-int", body });
    if (login === "skipped") return login;
    state(this).controls.push(login);
    return undefined;
  },
);

When("the client answers it with qop auth-int for the body {string}", async function (this: SxdWorld, body: string) {
  const result = await logIn(this, { qop: "auth-int", body });
  return result.kind === "unanswerable" ? this.notRun(result.reason) : undefined;
});

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

Then("the reply carries Authentication-Info", function (this: SxdWorld) {
  const reply = this.reply;
  const info = headerOf(reply, "authentication-info");
  expectThat(info !== undefined && info.trim() !== "", "an Authentication-Info header", "none", reply);
});

Then("the Authentication-Info proves that the server knows the secret", function (this: SxdWorld) {
  const reply = this.reply;
  const answer = state(this).answer;
  if (!answer) throw new Error("no answer was sent before in this scenario");
  const problems = authenticationInfoProblems(headerOf(reply, "authentication-info"), answer);
  expectThat(
    problems.length === 0,
    "Authentication-Info with rspauth as RFC 7616 §3.5 computes it, and qop, cnonce and nc echoed",
    problems.join("; "),
    reply,
  );
});

Then("no request carried the secret", function (this: SxdWorld) {
  const { password } = this.target.digest;
  for (const exchange of this.http.exchanges) {
    const sent = `${Object.values(exchange.requestHeaders).join("\n")}\n${exchange.requestBody ?? ""}`;
    if (sent.includes(password)) throw new Error(`the suite sent the secret in a request to ${exchange.url}`);
  }
});

Then("no reply asks for the secret in clear text", function (this: SxdWorld) {
  for (const exchange of this.http.exchanges) {
    if (!exchange.response) continue;
    const reply = exchange as Answered;
    const field = headerOf(reply, "www-authenticate");
    if (field === undefined) continue;
    const parsed = parseChallenges(field);
    const basic = parsed.ok && parsed.value.some((c) => c.scheme.toLowerCase() === "basic");
    expectThat(!basic, "only challenges that never ask for the secret itself", "a Basic challenge", reply);
  }
});

Then("the reply carries a Digest challenge with realm, nonce and qop", function (this: SxdWorld) {
  const reply = this.reply;
  const challenges = challengesOf(reply);
  expectThat(challenges.length > 0, "a WWW-Authenticate header with a Digest challenge", "none", reply);
  for (const challenge of challenges) {
    const absent = ["realm", "nonce", "qop"].filter((name) => !challenge.params.has(name));
    expectThat(absent.length === 0, "realm, nonce and qop in every Digest challenge", `no ${absent.join(", ")}`, reply);
    const unknown = challenge.qops.filter((qop) => qop !== "auth" && qop !== "auth-int");
    expectThat(
      challenge.qops.length > 0 && unknown.length === 0,
      "qop values from auth and auth-int",
      `qop="${challenge.params.get("qop")}"`,
      reply,
    );
  }
});

Then(
  "at least {int} replies so far are 401 with a Digest challenge, each with a nonce of its own",
  function (this: SxdWorld, least: number) {
    const seen = new Set<string>();
    let challenged = 0;
    for (const exchange of this.http.exchanges) {
      if (exchange.response?.status !== 401) continue;
      const reply = exchange as Answered;
      const nonces = new Set(challengesOf(reply).flatMap((c) => c.params.get("nonce") ?? []));
      expectThat(nonces.size > 0, "a Digest challenge with a nonce in every 401 reply", "a 401 without one", reply);
      for (const nonce of nonces) {
        if (seen.has(nonce))
          fail("a nonce not used in any earlier reply", `nonce ${nonce} again, first sent in an earlier reply`, reply);
        seen.add(nonce);
      }
      challenged++;
    }
    expectThat(
      challenged >= least,
      `at least ${least} replies of 401 with a Digest challenge to compare`,
      `${challenged} (statuses ${this.http.exchanges.map((e) => e.response?.status ?? "none").join(", ")})`,
      this.reply,
    );
  },
);

/** The nonce of the Authorization a reply answered, which a new challenge must not repeat. */
function answeredNonce(reply: Answered): string | undefined {
  const authorization = reply.requestHeaders.authorization;
  const parsed = authorization === undefined ? undefined : parseCredentials(authorization);
  return parsed?.ok ? parsed.value.params.get("nonce") : undefined;
}

/** The reply's challenges, which must carry nonces other than the one answered, so the client can try again. */
function newChallenges(reply: Answered, answered: string | undefined): DigestChallenge[] {
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

Then("the reply carries a new Digest challenge marked stale", function (this: SxdWorld) {
  const reply = this.reply;
  const challenges = newChallenges(reply, answeredNonce(reply));
  expectThat(
    challenges.every((c) => c.stale),
    "stale=true in the challenge (RFC 7616 §3.3)",
    challenges.map((c) => `stale=${c.params.get("stale") ?? "(absent)"}`).join(", "),
    reply,
  );
});

// Nonce use (DIG-9, DIG-10): staged as the target description states the server's policy.

const NO_LIMIT = "the target description states no nonce limit (digest.noncePolicy)";

Given("the target limits how often a nonce may be used", function (this: SxdWorld) {
  const policy = this.target.digest.noncePolicy;
  return policy === undefined || policy === "unlimited" ? this.notApplicable(NO_LIMIT) : undefined;
});

Given("the target limits the number of uses of a nonce", function (this: SxdWorld) {
  return Number.isFinite(nonceUses(this))
    ? undefined
    : this.notApplicable(`the target description states no limit on the uses of a nonce (${describePolicy(this)})`);
});

/** Logs in, then uses the nonce again with rising counts up to the stated limit (once for "nc-once"). */
async function useNonceUp(world: SxdWorld): Promise<"skipped" | undefined> {
  // "nc-once" allows any number of uses, each count once: one use is enough to replay.
  const uses = Number.isFinite(nonceUses(world)) ? nonceUses(world) : 1;
  if (uses > MOST_USES)
    return world.notRun(
      `${describePolicy(world)} allows ${uses} uses, more than the ${MOST_USES} sxd spends on a nonce`,
    );
  const login = await needLogin(world, CONTROL_REFUSED);
  if (login === "skipped") return login;
  for (let nc = 2; nc <= uses; nc++) {
    const a = answeringLike(world, login);
    const reply = await sendAnswer(
      world,
      answerChallenge(a.challenge, a.algorithm, a.request, { ...a.credentials, nc }),
    );
    expectThat(
      reply.response.status === 200,
      `200 for use ${nc} of a nonce, as ${describePolicy(world)} allows ${uses} uses`,
      `status ${reply.response.status} (is the description right?)`,
      reply,
    );
    state(world).logins.push({ ...login, answer: state(world).answer ?? login.answer, reply });
  }
  return undefined;
}

Given("the client used a nonce as often as the target allows", async function (this: SxdWorld) {
  return useNonceUp(this);
});

/** Which use of its nonce the last Authorization was: for messages that name the policy. */
function useOfNonce(world: SxdWorld): number {
  return state(world).logins.length + 1;
}

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
  await new Promise((resolve) => setTimeout(resolve, (lifetime + 1) * 1000));
  return undefined;
});
