/**
 * Steps of the digest rows about the challenge and a good login (DIG-1..5, DIG-7, DIG-11): a
 * client asks for the protected resource, answers the challenge (with each algorithm offered,
 * where a row binds every one), and reads what comes back; the rules about grants are read over
 * every exchange of the run as well (run-judge.ts).
 */

import { stated } from "../../harness/description/target.ts";
import { type Answered, headerOf } from "../../harness/evidence/exchange.ts";
import { parseChallenges } from "../../lib/auth-params.ts";
import { bodyBytes } from "../../lib/body.ts";
import type { Qop } from "../../lib/digest-math.ts";
import { mediaTypeMatches } from "../../lib/media-type.ts";
import { Given, Then, When } from "../support/cucumber.ts";
import { expectThat, fail } from "../support/expect.ts";
import type { SxdWorld } from "../support/world.ts";
import { challengeFormProblems, expectLogin, NEEDS_LOGIN, needLogin } from "./checks.ts";
import { authenticationInfoProblems } from "./digest-client.ts";
import { needLogins, tryEach } from "./each-algorithm.ts";
import {
  asksForTheSecret,
  EVERY_401_NONCE_IS_NEW,
  EVERY_GRANT_CARRIES_INFO,
  EVERY_RSPAUTH_PROVES_THE_SECRET,
  NO_REPLY_ASKS_FOR_THE_SECRET,
  runChecks,
} from "./run-judge.ts";
import { challengeFrom, challengesOf, type Login, loginHints, sendProtected, state } from "./session.ts";

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
    return tryEach(this);
  },
);

/** DIG-4 and DIG-8: each algorithm's valid credentials got 200. */
function expectEachGranted(world: SxdWorld): void {
  for (const { algorithm, qop, reply } of state(world).tried) {
    expectThat(
      reply.response.status === 200,
      `status 200 for valid ${algorithm} credentials${qop ? ` with qop ${qop}` : ""}, an algorithm the challenge offered`,
      `status ${reply.response.status}; ${loginHints(world)}`,
      reply,
    );
  }
}

Then("each of them is granted access", function (this: SxdWorld) {
  expectEachGranted(this);
});

Then("each of them is granted access, with a body of type {string}", function (this: SxdWorld, expected: string) {
  expectEachGranted(this);
  for (const { algorithm, reply } of state(this).tried) {
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

Given("the client has logged in with each algorithm offered", async function (this: SxdWorld) {
  const logins = await needLogins(this, NEEDS_LOGIN);
  return logins === "skipped" ? logins : undefined;
});

Given(
  "the client has logged in with qop {word}, with each algorithm offered",
  async function (this: SxdWorld, qop: string) {
    const logins = await needLogins(this, NEEDS_LOGIN, { qop: qop as Qop });
    return logins === "skipped" ? logins : undefined;
  },
);

/** The grants of this scenario: every login that got in, with each algorithm. */
function grants(world: SxdWorld): Login[] {
  const { logins } = state(world);
  if (logins.length === 0) throw new Error("no login before in this scenario");
  return logins;
}

// DIG-5: a grant carries Authentication-Info.
Then("each grant carries Authentication-Info", function (this: SxdWorld) {
  for (const { algorithm, qop, reply } of grants(this)) {
    const info = headerOf(reply, "authentication-info");
    expectThat(
      info !== undefined && info.trim() !== "",
      `an Authentication-Info header (${algorithm}, ${qop === null ? "no qop" : `qop=${qop}`})`,
      "none",
      reply,
    );
  }
});

// DIG-11: rspauth proves the secret, on each algorithm's grant.
Then("each Authentication-Info proves that the server knows the secret", function (this: SxdWorld) {
  for (const { algorithm, answer, reply } of grants(this)) {
    // auth-int's rspauth hashes the reply's body as sent: its bytes, UTF-8 or not.
    const problems = authenticationInfoProblems(
      headerOf(reply, "authentication-info"),
      answer,
      bodyBytes(reply.response),
    );
    expectThat(
      problems.length === 0,
      `Authentication-Info with rspauth as RFC 7616 §3.5 computes it, and qop, cnonce and nc echoed (${algorithm})`,
      problems.join("; "),
      reply,
    );
  }
});

/**
 * A rule read over the whole run (run-judge.ts): this scenario's own exchanges now, and every
 * exchange of the run once every scenario has run.
 */
function judgeWithTheRun(world: SxdWorld, check: string): void {
  const finding = runChecks[check](
    world.http.exchanges.map((exchange) => ({ exchange, scenario: "this one" })),
    world.target,
  );
  if (finding) fail(finding.expected, finding.got, finding.evidence[0].exchange as Answered);
  world.judgeWithTheRun(check);
}

Then(
  "every reply of the run that granted the user's credentials carries Authentication-Info",
  function (this: SxdWorld) {
    judgeWithTheRun(this, EVERY_GRANT_CARRIES_INFO);
  },
);

Then("every rspauth of the run, on a right answer, proves that the server knows the secret", function (this: SxdWorld) {
  judgeWithTheRun(this, EVERY_RSPAUTH_PROVES_THE_SECRET);
});

Then("no two 401 replies of the run carry the same nonce", function (this: SxdWorld) {
  judgeWithTheRun(this, EVERY_401_NONCE_IS_NEW);
});

Then("no reply of the run from the protected resource asks for the secret in clear text", function (this: SxdWorld) {
  judgeWithTheRun(this, NO_REPLY_ASKS_FOR_THE_SECRET);
});

Then("no request carried the secret", function (this: SxdWorld) {
  const { password } = stated(this.target, "digest");
  for (const exchange of this.http.exchanges) {
    const sent = `${Object.values(exchange.requestHeaders).join("\n")}\n${exchange.requestBody ?? ""}`;
    if (sent.includes(password)) throw new Error(`the suite sent the secret in a request to ${exchange.url}`);
  }
});

Then("no reply asks for the secret in clear text", function (this: SxdWorld) {
  for (const reply of this.http.answered) {
    const field = headerOf(reply, "www-authenticate");
    if (field === undefined) continue;
    const parsed = parseChallenges(field);
    const basic = parsed.ok && parsed.value.some((c) => asksForTheSecret(c.scheme));
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

// DIG-14: the challenge in the form RFC 7616 §3.3 gives it, which real clients match exactly.
Then("every Digest challenge is written as RFC 7616 §3.3 writes it", function (this: SxdWorld) {
  const reply = this.reply;
  const field = headerOf(reply, "www-authenticate");
  expectThat(field !== undefined, "a WWW-Authenticate header", "none", reply);
  const problems = challengeFormProblems(field ?? "");
  expectThat(
    problems.length === 0,
    "realm, domain, nonce, opaque and qop quoted; stale and algorithm as tokens; algorithm spelled as registered",
    problems.join("; "),
    reply,
  );
});

// DIG-2 and DIG-3: every 401 carries a Digest challenge, and each challenge a nonce not seen before.
Then(
  "at least {int} replies so far are 401 with a Digest challenge, each with a nonce of its own",
  function (this: SxdWorld, least: number) {
    const seen = new Set<string>();
    let challenged = 0;
    for (const reply of this.http.answered) {
      if (reply.response.status !== 401) continue;
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
