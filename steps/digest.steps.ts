/**
 * Steps of the digest rows (DIG-1..12): a client asks for the protected resource, answers
 * the challenge rightly or wrongly, and reads what the server says back.
 */
import { Given, Then, When } from "@cucumber/cucumber";
import { type Answered, headerOf } from "../harness/exchange.ts";
import { parseChallenges, parseCredentials } from "../lib/auth-params.ts";
import type { NoncePolicy } from "../lib/digest.ts";
import { type Algorithm, type Formula, parseAlgorithm, type Qop } from "../lib/digest.ts";
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
import type { SxdWorld } from "./support/world.ts";

interface DigestState {
  challenges: DigestChallenge[];
  answer?: DigestAnswer;
  /** The Authorization last sent, for a replay. */
  authorization?: string;
  body?: string;
  /** The formula in which the server granted access, once known (see `answerValidly`). */
  formula?: Formula;
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

function answering(
  world: SxdWorld,
  wanted?: Algorithm,
  body?: string,
  formula: Formula | undefined = state(world).formula,
): Answering {
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
    credentials: { username, password, formula },
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

/** The nonce of the Authorization last sent, which a new challenge must not repeat. */
function answeredNonce(world: SxdWorld): string | undefined {
  const { authorization } = state(world);
  const parsed = authorization === undefined ? undefined : parseCredentials(authorization);
  return parsed?.ok ? parsed.value.params.get("nonce") : undefined;
}

/** An absent policy states no limit, like "unlimited". */
function nonceUses(world: SxdWorld): number {
  const policy: NoncePolicy | undefined = world.target.digest.noncePolicy;
  if (policy === undefined || policy === "unlimited") return Number.POSITIVE_INFINITY;
  return policy === "one-time" ? 1 : policy.uses;
}

async function challengeFrom(world: SxdWorld): Promise<void> {
  const reply = await world.http.send("GET", protectedUrl(world));
  const challenges = challengesOf(reply);
  expectThat(challenges.length > 0, "a WWW-Authenticate Digest challenge", "none", reply);
  state(world).challenges = challenges;
}

const granted = (reply: Answered) => reply.response.status >= 200 && reply.response.status < 300;

interface ValidAnswer {
  wanted?: Algorithm;
  body?: string;
  qop?: Qop;
  nc?: number;
}

/**
 * Sends valid credentials in the formula the server takes. SPEC.md shows only
 * response = H(A1:nonce:A2) and leaves open how nc, cnonce, qop and the body enter it, so
 * until the server has granted access once, RFC 7616's formula goes first and, if refused,
 * the spec's literal one over a fresh challenge. The formula that gets in is kept for the
 * rest of the scenario.
 */
async function answerValidly(world: SxdWorld, { wanted, body, qop, nc }: ValidAnswer): Promise<Answered> {
  const digest = state(world);
  const send = (formula: Formula) => {
    const a = answering(world, wanted, body, formula);
    return sendAnswer(world, answerChallenge(a.challenge, a.algorithm, a.request, { ...a.credentials, qop, nc }), body);
  };
  if (digest.formula) return send(digest.formula);
  const first = await send("rfc7616");
  if (granted(first)) {
    digest.formula = "rfc7616";
    return first;
  }
  await challengeFrom(world);
  const retry = await send("spec");
  if (granted(retry)) digest.formula = "spec";
  return retry;
}

const BODY_NOT_COVERED =
  "the server takes only the spec's literal digest formula, which leaves the body out, so a changed body " +
  "cannot be detected; RFC 7616's H(body) rule for auth-int applies where the server takes RFC 7616's formula";

/** A valid auth-int answer over the body; not applicable where the server's formula ignores the body. */
async function answerWithAuthInt(world: SxdWorld, body: string): Promise<Answered | "skipped"> {
  const reply = await answerValidly(world, { body, qop: "auth-int" });
  return state(world).formula === "spec" ? world.notApplicable(BODY_NOT_COVERED) : reply;
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
  await challengeFrom(this);
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
    : this.notApplicable("the target description states no nonce limit (digest.noncePolicy)");
});

When("the client answers it with valid credentials", async function (this: SxdWorld) {
  await answerValidly(this, {});
});

When("the client answers it with valid credentials computed as RFC 7616 says", async function (this: SxdWorld) {
  const a = answering(this, undefined, undefined, "rfc7616");
  await sendAnswer(this, answerChallenge(a.challenge, a.algorithm, a.request, a.credentials));
});

When("the client answers it with valid {word} credentials", async function (this: SxdWorld, name: string) {
  const algorithm = parseAlgorithm(name);
  if (!algorithm) throw new Error(`the suite has no algorithm ${name}`);
  await answerValidly(this, { wanted: algorithm });
});

When("the client answers it with qop auth-int for the body {string}", async function (this: SxdWorld, body: string) {
  const reply = await answerWithAuthInt(this, body);
  return reply === "skipped" ? reply : undefined;
});

Given(
  "the client was granted access with qop auth-int for the body {string}",
  async function (this: SxdWorld, body: string) {
    const reply = await answerWithAuthInt(this, body);
    if (reply === "skipped") return reply;
    expectThat(
      reply.response.status === 200,
      "200 for a correct qop=auth-int digest, computed as RFC 7616 says or with the spec's literal formula",
      `status ${reply.response.status}`,
      reply,
    );
  },
);

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
  for (let nc = 1; nc <= nonceUses(this); nc++) {
    const reply = await answerValidly(this, { nc });
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

/** The reply's challenges, which must carry nonces other than the one just answered, so the client can try again. */
function newChallenges(world: SxdWorld): DigestChallenge[] {
  const reply = world.reply;
  const answered = answeredNonce(world);
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

Then("the reply carries a new Digest challenge", function (this: SxdWorld) {
  newChallenges(this);
});

Then("the reply carries a new Digest challenge marked stale", function (this: SxdWorld) {
  const challenges = newChallenges(this);
  expectThat(
    challenges.every((c) => c.stale),
    "stale=true in the challenge (RFC 7616 §3.3)",
    challenges.map((c) => `stale=${c.params.get("stale") ?? "(absent)"}`).join(", "),
    this.reply,
  );
});
