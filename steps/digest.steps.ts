/**
 * Steps of the digest rows (DIG-1..12): a client asks for the protected resource, answers
 * the challenge rightly or wrongly, and reads what the server says back.
 */
import { Given, Then, When } from "@cucumber/cucumber";
import { parseChallenges } from "../lib/auth-params.ts";
import { type Algorithm, parseAlgorithm } from "../lib/digest.ts";
import {
  answerChallenge,
  authenticationInfoProblems,
  authorizationOf,
  chooseChallenge,
  type DigestAnswer,
  type DigestChallenge,
  digestChallenges,
} from "./support/digest.ts";
import { type Answering, DEFECTS, MISMATCHES } from "./support/digest-flaws.ts";
import { expectThat, fail } from "./support/expect.ts";
import { type Answered, headerOf } from "./support/http.ts";
import type { SxdWorld } from "./support/world.ts";

interface DigestState {
  challenges: DigestChallenge[];
  answer?: DigestAnswer;
  /** The Authorization last sent, for a replay. */
  authorization?: string;
  body?: string;
}

const states = new WeakMap<SxdWorld, DigestState>();

function state(world: SxdWorld): DigestState {
  let found = states.get(world);
  if (!found) {
    found = { challenges: [] };
    states.set(world, found);
  }
  return found;
}

function protectedUrl(world: SxdWorld): string {
  return `${world.target.baseUrl}${world.target.digest.path}`;
}

/** The request-target the uri directive must repeat. */
function requestTarget(world: SxdWorld): string {
  const url = new URL(protectedUrl(world));
  return `${url.pathname}${url.search}`;
}

function challengesOf(reply: Answered): DigestChallenge[] {
  const parsed = digestChallenges(headerOf(reply, "www-authenticate"));
  if (!parsed.ok) fail("WWW-Authenticate challenges in the RFC 9110 syntax", parsed.error, reply);
  return parsed.value;
}

function answering(world: SxdWorld, wanted?: Algorithm, body?: string): Answering {
  const chosen = chooseChallenge(state(world).challenges, wanted);
  if (!chosen) {
    fail(
      `a Digest challenge with ${wanted ?? "an algorithm the suite knows (SHA-256, MD5 or their -sess variants)"}`,
      state(world)
        .challenges.map((c) => `algorithm=${c.algorithm}`)
        .join(", ") || "no Digest challenge",
      world.reply,
    );
  }
  const { username, password } = world.target.digest;
  return {
    ...chosen,
    request: { method: "GET", uri: requestTarget(world), body },
    credentials: { username, password },
  };
}

async function sendAuthorization(world: SxdWorld, authorization: string, body?: string): Promise<Answered> {
  const digest = state(world);
  digest.authorization = authorization;
  digest.body = body;
  const headers: Record<string, string> = { authorization };
  if (body !== undefined) headers["content-type"] = "application/xml";
  return world.http.send("GET", protectedUrl(world), { headers, body });
}

async function sendAnswer(world: SxdWorld, answer: DigestAnswer, body?: string): Promise<Answered> {
  state(world).answer = answer;
  return sendAuthorization(world, authorizationOf(answer.directives), body);
}

function nonceUses(world: SxdWorld): number {
  const policy = world.target.digest.noncePolicy;
  return policy === "one-time" ? 1 : policy === "unlimited" ? Number.POSITIVE_INFINITY : policy.uses;
}

When("the client requests the protected resource without credentials", async function (this: SxdWorld) {
  await this.http.send("GET", protectedUrl(this));
});

When(
  "the client requests the protected resource without credentials {int} times",
  async function (this: SxdWorld, times: number) {
    for (let i = 0; i < times; i++) await this.http.send("GET", protectedUrl(this));
  },
);

Given("a challenge from the protected resource", async function (this: SxdWorld) {
  const reply = await this.http.send("GET", protectedUrl(this));
  const challenges = challengesOf(reply);
  expectThat(challenges.length > 0, "a WWW-Authenticate Digest challenge", "none", reply);
  state(this).challenges = challenges;
});

Given("the challenge offers qop auth-int", function (this: SxdWorld) {
  return state(this).challenges.some((c) => c.qops.includes("auth-int"))
    ? undefined
    : this.notApplicable("the challenge does not offer qop=auth-int");
});

Given("the challenge offers {word}", function (this: SxdWorld, algorithm: string) {
  return state(this).challenges.some((c) => parseAlgorithm(c.algorithm) === parseAlgorithm(algorithm))
    ? undefined
    : this.notApplicable(`the challenge does not offer ${algorithm}`);
});

Given("the target limits how often a nonce may be used", function (this: SxdWorld) {
  return Number.isFinite(nonceUses(this))
    ? undefined
    : this.notApplicable('the target description states no nonce limit (digest.noncePolicy is "unlimited")');
});

When("the client answers it with valid credentials", async function (this: SxdWorld) {
  const a = answering(this);
  await sendAnswer(this, answerChallenge(a.challenge, a.algorithm, a.request, a.credentials));
});

When("the client answers it with valid {word} credentials", async function (this: SxdWorld, name: string) {
  const algorithm = parseAlgorithm(name);
  if (!algorithm) throw new Error(`the suite has no algorithm ${name}`);
  const a = answering(this, algorithm);
  await sendAnswer(this, answerChallenge(a.challenge, a.algorithm, a.request, a.credentials));
});

When("the client answers it with qop auth-int for the body {string}", async function (this: SxdWorld, body: string) {
  const a = answering(this, undefined, body);
  const answer = answerChallenge(a.challenge, a.algorithm, a.request, { ...a.credentials, qop: "auth-int" });
  await sendAnswer(this, answer, body);
});

When(
  "the client answers it with qop auth-int for the body {string} but sends the body {string}",
  async function (this: SxdWorld, signed: string, sent: string) {
    const a = answering(this, undefined, signed);
    const answer = answerChallenge(a.challenge, a.algorithm, a.request, { ...a.credentials, qop: "auth-int" });
    await sendAnswer(this, answer, sent);
  },
);

When(
  /^the client answers it with (.+) but otherwise valid credentials$/,
  async function (this: SxdWorld, flaw: string) {
    const build = MISMATCHES[flaw];
    if (!build) throw new Error(`unknown credential flaw "${flaw}" (known: ${Object.keys(MISMATCHES).join("; ")})`);
    await sendAuthorization(this, build(answering(this)));
  },
);

When("the client answers it with credentials with {string}", async function (this: SxdWorld, defect: string) {
  const build = DEFECTS[defect];
  if (!build) throw new Error(`unknown defect "${defect}" (known: ${Object.keys(DEFECTS).join("; ")})`);
  await sendAuthorization(this, build(answering(this)));
});

When("the client uses the nonce as often as the target allows", async function (this: SxdWorld) {
  const a = answering(this);
  for (let nc = 1; nc <= nonceUses(this); nc++) {
    const reply = await sendAnswer(
      this,
      answerChallenge(a.challenge, a.algorithm, a.request, { ...a.credentials, nc }),
    );
    expectThat(
      reply.response.status === 200,
      `200 for use ${nc} of a nonce the target description allows ${nonceUses(this)} uses`,
      `status ${reply.response.status}`,
      reply,
    );
  }
});

When("the client sends the same Authorization again", async function (this: SxdWorld) {
  const { authorization, body } = state(this);
  if (!authorization) throw new Error("no Authorization was sent before in this scenario");
  await sendAuthorization(this, authorization, body);
});

When("the client answers the same challenge again with the next nonce count", async function (this: SxdWorld) {
  const last = state(this).answer;
  if (!last) throw new Error("no answer was sent before in this scenario");
  const a = answering(this, last.input.algorithm);
  const nc = Number.parseInt(last.input.nc ?? "0", 16) + 1;
  await sendAnswer(this, answerChallenge(a.challenge, a.algorithm, a.request, { ...a.credentials, nc }));
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

Then("every 401 reply so far carries a nonce of its own", function (this: SxdWorld) {
  const seen = new Map<string, Answered>();
  for (const exchange of this.http.exchanges) {
    if (exchange.response?.status !== 401) continue;
    const reply = exchange as Answered;
    const nonces = new Set(challengesOf(reply).map((c) => c.params.get("nonce") ?? ""));
    expectThat(nonces.size > 0, "a nonce in every 401 reply", "a 401 without a Digest nonce", reply);
    for (const nonce of nonces) {
      const earlier = seen.get(nonce);
      if (earlier)
        fail("a nonce not used in any earlier reply", `nonce ${nonce} again, first sent in an earlier reply`, reply);
      seen.set(nonce, reply);
    }
  }
});

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

Then("the reply carries a new Digest challenge", function (this: SxdWorld) {
  const reply = this.reply;
  const challenges = challengesOf(reply);
  expectThat(
    challenges.some((c) => c.params.has("nonce")),
    "a Digest challenge with a nonce, so the client can try again",
    "none",
    reply,
  );
});

Then("the reply carries a new Digest challenge marked stale", function (this: SxdWorld) {
  const reply = this.reply;
  const used = state(this).answer?.input.nonce;
  const challenges = challengesOf(reply);
  expectThat(challenges.length > 0, "a Digest challenge", "none", reply);
  expectThat(
    challenges.every((c) => c.stale),
    "stale=true in the challenge (RFC 7616 §3.3)",
    challenges.map((c) => `stale=${c.params.get("stale") ?? "(absent)"}`).join(", "),
    reply,
  );
  expectThat(
    challenges.every((c) => c.params.get("nonce") !== used),
    "a nonce other than the used-up one",
    `the same nonce ${used}`,
    reply,
  );
});
