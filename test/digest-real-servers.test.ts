/**
 * The digest rows against small servers that behave like real ones (issue 14), each with
 * one bug: the suite must fail the row the bug breaks, never pass a row on refusals alone,
 * and call "not run" what it cannot check, with the reason. Each case asserts verdicts and
 * reasons, and prints the row verdicts of its run.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it, type TestContext } from "node:test";
import { resolveDescription, type TargetDescription } from "../harness/description/target.ts";
import { validateDescription } from "../harness/description/target-check.ts";
import { loadRows } from "../harness/judging/catalogue.ts";
import { observationsOf } from "../harness/judging/outcomes.ts";
import type { RowResult } from "../harness/judging/verdicts.ts";
import { startDigestServer } from "./digest-targets/digest-server.ts";
import { NONCE_LIFETIME_SECONDS, TARGETS, type TargetName } from "./digest-targets/targets.ts";
import { sxdHere } from "./support/cli.ts";
import { behaviourTags, runAgainstTarget } from "./support/suite.ts";

const DIGEST_ROW_IDS = loadRows()
  .map((r) => r.id)
  .filter((id) => id.startsWith("DIG-"))
  .sort();
const DIGEST_ROWS = behaviourTags("DIG", DIGEST_ROW_IDS);

type Verdicts = Map<string, RowResult>;

/** Runs the digest rows against the named server, described as its operator would, with `stated` on top. */
async function verdictsOf(
  t: TestContext,
  name: TargetName,
  stated: object = {},
  tags = DIGEST_ROWS,
): Promise<Verdicts> {
  const server = await startDigestServer(TARGETS[name].quirks());
  try {
    const layer = { ...server.description, digest: { ...server.description.digest, ...stated } };
    const valid = validateDescription(layer);
    assert.ok(valid.ok, `the description of ${name} is refused: ${valid.ok ? "" : valid.error}`);
    const resolved = resolveDescription([valid.value]);
    assert.ok(resolved.ok);
    const run = await runAgainstTarget(resolved.value as TargetDescription, { tags, strict: false });
    const rows = new Map(run.judgement.rows.filter((r) => r.scenarios.length > 0).map((r) => [r.row.id, r]));
    t.diagnostic(`${name} ${JSON.stringify(stated)}: ${[...rows].map(([id, r]) => `${id} ${r.verdict}`).join(", ")}`);
    return rows;
  } finally {
    await server.close();
  }
}

function verdict(rows: Verdicts, id: string): string {
  return rows.get(id)?.verdict ?? "absent";
}

/** Every message of the row's scenarios, failures and reasons alike, for matching. */
function messages(rows: Verdicts, id: string): string {
  const row = rows.get(id);
  return [row?.reason, ...(row?.scenarios ?? []).map((s) => s.message)].filter(Boolean).join("\n");
}

/** The first lines of the row's reason, enough to see why in a test failure. */
function why(rows: Verdicts, id: string): string {
  return `${id} ${verdict(rows, id)}: ${(rows.get(id)?.reason ?? "").split("\n").slice(0, 3).join(" / ")}`;
}

function assertVerdict(rows: Verdicts, id: string, expected: string, reason?: RegExp): void {
  assert.equal(verdict(rows, id), expected, why(rows, id));
  if (reason) assert.ok(reason.test(messages(rows, id)), `${why(rows, id)}: no ${reason}`);
}

/** The scenarios of the row that name one of the cases (an Examples value in the title). */
function casesOf(rows: Verdicts, id: string, cases: readonly string[]) {
  return (rows.get(id)?.scenarios ?? []).filter((s) => cases.some((c) => s.name.includes(c)));
}

/** The row's failed scenarios are those of exactly these cases, each one at least once. */
function assertFailedCases(rows: Verdicts, id: string, cases: readonly string[]): void {
  const failed = (rows.get(id)?.scenarios ?? []).filter((s) => s.status === "failed").map((s) => s.name);
  const named = failed.filter((name) => cases.some((c) => name.includes(c)));
  assert.deepEqual(named, failed, `${id}: failed cases other than ${cases.join("; ")}`);
  for (const c of cases)
    assert.ok(
      failed.some((name) => name.includes(c)),
      `${id}: "${c}" did not fail`,
    );
}

/** Only the server's bug shows: exactly these rows failed or warned. */
function assertOnlyFaulty(rows: Verdicts, ...expected: string[]): void {
  const faulty = [...rows.keys()].filter((id) => ["failed", "warning"].includes(verdict(rows, id)));
  assert.deepEqual(faulty, expected, faulty.map((id) => why(rows, id)).join("\n"));
}

const NEEDS_LOGIN = /needs a login: see DIG-4/;
describe("the digest rows against servers that behave like real ones", () => {
  it("the correct server the others are built on passes every digest row it takes", async (t) => {
    const rows = await verdictsOf(t, "correct", { noncePolicy: "nc-once", nonceLifetime: "unlimited" });
    assertOnlyFaulty(rows);
    for (const [id, row] of rows) assert.ok(["passed", "not applicable"].includes(row.verdict), why(rows, id));
    assertVerdict(rows, "DIG-9", "passed");
  });

  it("a server that checks only the timestamp of its nonces fails DIG-6", async (t) => {
    const rows = await verdictsOf(t, "nonce-timestamp-only");
    assertOnlyFaulty(rows, "DIG-6");
    assertVerdict(rows, "DIG-6", "failed");
    // A random nonce is refused on its shape alone; the one built from the server's own gets in.
    assertFailedCases(rows, "DIG-6", ["a nonce of the server's shape it never issued"]);
  });

  it("a server that refuses every login fails DIG-4 alone, and no refusal passes", async (t) => {
    const rows = await verdictsOf(t, "refuses-every-login");
    assertOnlyFaulty(rows, "DIG-4");
    assertVerdict(rows, "DIG-4", "failed", /digest\.username|digest\.password/);
    for (const id of ["DIG-5", "DIG-7", "DIG-11"]) assertVerdict(rows, id, "not run", NEEDS_LOGIN);
    for (const id of ["DIG-6", "DIG-8", "DIG-12"]) assertVerdict(rows, id, "not run", /see DIG-4/);
  });

  it("a server that takes an unknown algorithm for MD5 and reads nc leniently gets DIG-12 naming the defects", async (t) => {
    const rows = await verdictsOf(t, "unknown-algorithm-as-md5");
    assertOnlyFaulty(rows, "DIG-12");
    assertVerdict(rows, "DIG-12", "warning");
    assertFailedCases(rows, "DIG-12", ["nc not hexadecimal", "nc of six digits", "unknown algorithm", "mutants"]);
    // The unknown algorithm gets in only where the defect is built on the MD5 answer, and so does
    // an empty one, which only the mutants of the MD5 credentials send.
    assert.match(messages(rows, "DIG-12"), /built on MD5/);
    assert.match(messages(rows, "DIG-12"), /algorithm:empty \(algorithm="" [^)]*\): status 200 with MD5(;|$)/m);
  });

  it("a server offering only SHA-512-256 gets its logins answered", async (t) => {
    const rows = await verdictsOf(t, "sha-512-256-only");
    assertOnlyFaulty(rows);
    for (const id of ["DIG-3", "DIG-4", "DIG-5", "DIG-6", "DIG-7", "DIG-11"]) assertVerdict(rows, id, "passed");
  });

  it("a server offering an algorithm sxd cannot compute beside SHA-256: judged on SHA-256, the other named as not tried", async (t) => {
    const rows = await verdictsOf(t, "offers-unregistered-too", {}, "@DIG-5 or @DIG-11 or @DIG-14");
    assertOnlyFaulty(rows, "DIG-14");
    for (const id of ["DIG-5", "DIG-11"]) {
      assertVerdict(rows, id, "passed");
      const observed = (rows.get(id)?.scenarios ?? []).flatMap((s) => observationsOf(s.attachments));
      assert.ok(
        observed.some((o) => /^not tried with SHA3-256: offered, but no algorithm RFC 7616 registers/.test(o)),
        `${id}: ${observed.join("; ")}`,
      );
    }
  });

  it("a server that needs its session cookie back fails DIG-4, and the failure names the cookie", async (t) => {
    const rows = await verdictsOf(t, "nonce-in-session-cookie");
    assertOnlyFaulty(rows, "DIG-4");
    // The transcripts show the server's set-cookie header; the message itself must speak of the cookie.
    assertVerdict(rows, "DIG-4", "failed", /(?<!set-)cookie(?!:)/i);
  });

  it("a server that needs its session cookie back passes where the description turns cookies on", async (t) => {
    const rows = await verdictsOf(t, "nonce-in-session-cookie", { cookies: true });
    assertOnlyFaulty(rows);
    for (const id of ["DIG-4", "DIG-5", "DIG-6", "DIG-7", "DIG-11"]) assertVerdict(rows, id, "passed");
  });

  it("a server that offers auth-int and leaves the body out fails DIG-8", async (t) => {
    const rows = await verdictsOf(t, "auth-int-body-ignored");
    assertOnlyFaulty(rows, "DIG-8");
    // The spec's literal formula gets the auth-int request in, and then a changed body too.
    assertVerdict(rows, "DIG-8", "failed", /does not protect the body/);
    assertFailedCases(rows, "DIG-8", ["A body changed after the digest was computed"]);
  });

  it("a server whose nonces expire within seconds lets the suite log in", async (t) => {
    const rows = await verdictsOf(t, "short-lived-nonces");
    assertOnlyFaulty(rows);
    for (const id of ["DIG-4", "DIG-5", "DIG-6", "DIG-7", "DIG-11", "DIG-12"]) assertVerdict(rows, id, "passed");
  });

  it("a server whose nonces expire within seconds passes DIG-9 and DIG-10 where the description says so", async (t) => {
    const rows = await verdictsOf(t, "short-lived-nonces", {
      noncePolicy: "nc-once",
      nonceLifetime: NONCE_LIFETIME_SECONDS,
    });
    assertOnlyFaulty(rows);
    assertVerdict(rows, "DIG-9", "passed");
    assertVerdict(rows, "DIG-10", "passed");
  });

  it("a server whose nonce aged between the challenge and the answer lets the suite in once it retries on stale=true", async (t) => {
    const rows = await verdictsOf(t, "nonces-aged-under-load");
    assertOnlyFaulty(rows);
    for (const id of ["DIG-4", "DIG-5", "DIG-7", "DIG-8", "DIG-11"]) assertVerdict(rows, id, "passed");
  });

  it("a server that asks for userhash gets its logins answered", async (t) => {
    const rows = await verdictsOf(t, "asks-userhash");
    assertOnlyFaulty(rows);
    for (const id of ["DIG-4", "DIG-5", "DIG-6", "DIG-7", "DIG-11"]) assertVerdict(rows, id, "passed");
  });

  it("a server that speaks RFC 2069 only fails DIG-1 for the missing qop, and nothing for what it cannot have", async (t) => {
    const rows = await verdictsOf(t, "rfc2069-only");
    assertOnlyFaulty(rows, "DIG-1");
    assertVerdict(rows, "DIG-1", "failed", /qop/);
    for (const id of ["DIG-4", "DIG-5", "DIG-6", "DIG-7", "DIG-11"]) assertVerdict(rows, id, "passed");
    assertVerdict(rows, "DIG-8", "not applicable");
    // The defects that remove or alter qop, nc or cnonce have nothing to work on: not applicable, never failed.
    const qopCases = casesOf(rows, "DIG-12", ["no qop", "no nc", "no cnonce", "nc of", "nc not", "unknown qop"]);
    assert.ok(qopCases.length >= 6, why(rows, "DIG-12"));
    for (const s of qopCases) assert.equal(s.status, "not applicable", s.name);
  });
});

// DIG-11 alone (and DIG-5, whose Authentication-Info it reads): with qop=auth-int, rspauth hashes
// the reply's body (RFC 2617 §3.2.3), and where auth and auth-int are both offered, each is checked.
describe("rspauth with qop auth-int", () => {
  const RSPAUTH_ROWS = "@DIG-5 or @DIG-11";
  it("a server offering auth-int alone, its rspauth over the reply's body, passes DIG-11", async (t) => {
    const rows = await verdictsOf(t, "auth-int-only", {}, RSPAUTH_ROWS);
    assertOnlyFaulty(rows);
    assertVerdict(rows, "DIG-11", "passed");
  });

  it("a reply body that is not UTF-8 is hashed as its bytes: rspauth over them passes DIG-11", async (t) => {
    const rows = await verdictsOf(t, "latin-1-reply", {}, RSPAUTH_ROWS);
    assertOnlyFaulty(rows);
    assertVerdict(rows, "DIG-11", "passed");
  });

  it("a reply body that is not UTF-8, rspauth over its text read as UTF-8 rather than its bytes: DIG-11", async (t) => {
    const rows = await verdictsOf(t, "latin-1-reply-rspauth-over-text", {}, RSPAUTH_ROWS);
    assertOnlyFaulty(rows, "DIG-11");
    // It offers auth-int alone: the plain login's grant is auth-int's too.
    assertFailedCases(rows, "DIG-11", ["proves the server knows the secret", "With qop auth-int"]);
  });

  it("a server computing auth-int's rspauth over the request's body gets DIG-11, which says so", async (t) => {
    const rows = await verdictsOf(t, "rspauth-over-request-body", {}, RSPAUTH_ROWS);
    assertOnlyFaulty(rows, "DIG-11");
    assertVerdict(rows, "DIG-11", "warning", /it hashes the request's body/);
    assertFailedCases(rows, "DIG-11", ["With qop auth-int"]);
  });

  it("a server offering auth and auth-int gets DIG-11 for a random rspauth on auth-int alone", async (t) => {
    const rows = await verdictsOf(t, "auth-int-rspauth-random", {}, RSPAUTH_ROWS);
    assertOnlyFaulty(rows, "DIG-11");
    assertFailedCases(rows, "DIG-11", ["With qop auth-int"]);
  });
});

// Servers that keep state: the control logins spend nonces, and a stated limit is a number of uses.
describe("the digest rows against servers whose nonces run out", () => {
  it("a description silent on nonces leaves DIG-9 and DIG-10 not run with the keys to set, never not applicable", async (t) => {
    const rows = await verdictsOf(t, "correct");
    assertVerdict(rows, "DIG-9", "not run", /state digest\.noncePolicy/);
    assertVerdict(rows, "DIG-10", "not run", /state digest\.nonceLifetime/);
  });

  it("one-time nonces done right pass DIG-6, DIG-8, DIG-9 and DIG-10: every flawed request gets a nonce of its own", async (t) => {
    const rows = await verdictsOf(t, "one-time-nonces", { noncePolicy: "one-time" });
    assertOnlyFaulty(rows);
    for (const id of ["DIG-6", "DIG-8", "DIG-9", "DIG-10", "DIG-12"]) assertVerdict(rows, id, "passed");
  });

  it("one-time nonces that take any response fail DIG-6 and DIG-8, not as replays", async (t) => {
    const rows = await verdictsOf(t, "one-time-nonces-any-response", { noncePolicy: "one-time" });
    assertVerdict(rows, "DIG-6", "failed", /no access, where the same request without the flaw/);
    // It checks that the nonce is its own and unused, so the forged nonces alone are refused;
    // the mutants that prove another user or a wrong digest get in too.
    assertFailedCases(rows, "DIG-6", ["a wrong secret", "an unknown username", "Credentials mutated"]);
    assertVerdict(rows, "DIG-8", "failed");
    assertVerdict(rows, "DIG-9", "passed");
  });

  it("three uses stated, in the RFC 2069 form: the second and third uses get in, the fourth is the replay", async (t) => {
    const rows = await verdictsOf(t, "three-uses-rfc2069-only", { noncePolicy: { uses: 3 } });
    assertOnlyFaulty(rows, "DIG-1");
    assertVerdict(rows, "DIG-9", "passed");
    assertVerdict(rows, "DIG-10", "passed");
  });

  it("three uses stated, but replays without qop never run out: DIG-9 fails at use 4 of 3", async (t) => {
    const rows = await verdictsOf(t, "three-uses-rfc2069-replays-unlimited", { noncePolicy: { uses: 3 } });
    assertVerdict(
      rows,
      "DIG-9",
      "failed",
      /this was use 4 of a nonce, where digest\.noncePolicy \{"uses":3\} allows 3 uses/,
    );
    assertVerdict(rows, "DIG-10", "warning");
  });

  it("more uses stated than the server gives: the failure names the use within the limit that was refused", async (t) => {
    const rows = await verdictsOf(t, "three-uses-rfc2069-only", { noncePolicy: { uses: 5 } });
    assertVerdict(
      rows,
      "DIG-9",
      "failed",
      /200 for use 4 of a nonce, where digest\.noncePolicy \{"uses":5\} allows 5 uses/,
    );
  });
});

// The README's two commands as a new user types them, against a digest server whose protected
// resource is not the reference's (/account, not /protected), and a description written by hand.
describe("the README's first commands against a digest server on a path of its own", () => {
  /** A folder for the description and the reports, removed whatever the test's outcome. */
  async function inFolder(use: (folder: string) => Promise<void>): Promise<void> {
    const folder = mkdtempSync(join(tmpdir(), "sxd-readme-"));
    try {
      await use(folder);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }

  it("init without a terminal states nothing unasked; test fails and warns nothing, and names the keys to state", async () => {
    const server = await startDigestServer(TARGETS.correct.quirks());
    try {
      await inFolder(async (folder) => {
        const file = join(folder, "sxd-target.json");
        const init = await sxdHere(["init", "--base-url", server.url, "--out", file]);
        assert.equal(init.code, 0, init.stderr);
        const run = await sxdHere(["test", "--config", file, "--report-dir", join(folder, "reports")]);
        assert.doesNotMatch(run.stdout, /FAILED|WARNING/);
        // Before any request, the keys left out, each with the rows that need it.
        const stated = run.stderr.indexOf("sxd:   digest.path: DIG-1, DIG-2,");
        assert.ok(stated >= 0 && stated < run.stderr.indexOf("round trip"), run.stderr);
        assert.match(run.stderr, /^sxd: {3}digest\.username, digest\.password: DIG-3, DIG-4, /m);
        // One line per reason, not a line per row; every digest row among them, naming digest.path.
        const notRun = run.stdout.split("\n").filter((line) => line.startsWith("  NOT RUN: "));
        assert.equal(notRun.length, 4, run.stdout);
        const digestRows = notRun.filter((line) => / DIG-1[,\s]| DIG-4[,\s]/.test(line));
        assert.equal(digestRows.length, 2, run.stdout);
        for (const line of digestRows) assert.match(line, /state digest\.path/);
        const named = new Set(digestRows.flatMap((line) => line.match(/DIG-\d+/g) ?? []));
        assert.deepEqual([...named].sort(), DIGEST_ROW_IDS);
        // Nothing ran, nothing failed: the verdict and the code both say incomplete.
        assert.match(run.stdout, /^verdict: incomplete /m);
        assert.equal(run.code, 3);
      });
    } finally {
      await server.close();
    }
  });

  it("with the path, the user and the nonce policy stated in that file, the server is conformant", async () => {
    const server = await startDigestServer(TARGETS.correct.quirks());
    try {
      await inFolder(async (folder) => {
        const file = join(folder, "sxd-target.json");
        assert.equal((await sxdHere(["init", "--base-url", server.url, "--out", file])).code, 0);
        const written = JSON.parse(readFileSync(file, "utf8"));
        Object.assign(written.digest, {
          ...server.description.digest,
          noncePolicy: "nc-once",
          nonceLifetime: "unlimited",
        });
        writeFileSync(file, JSON.stringify(written));
        const run = await sxdHere(["test", "--config", file, "--tags", DIGEST_ROWS, "--report-dir", join(folder, "r")]);
        assert.doesNotMatch(run.stdout, /FAILED|WARNING|NOT RUN/);
        assert.match(run.stdout, /^verdict: conformant /m);
        assert.equal(run.code, 0, run.stdout);
      });
    } finally {
      await server.close();
    }
  });

  it("a path the server never had (the reference's /protected) fits nothing: every digest row not run, naming digest.path", async (t) => {
    const rows = await verdictsOf(t, "correct", { path: "/protected" });
    assertOnlyFaulty(rows);
    for (const id of DIGEST_ROW_IDS.filter((id) => !["DIG-9", "DIG-10"].includes(id))) {
      assertVerdict(rows, id, "not run", /^digest\.path does not fit the server \(404 to GET http:\S+\/protected\)/);
    }
  });

  it("a protected path that challenged, then answers a right login with 404, fails DIG-4: the path is known", async () => {
    const server = createServer((request, response) => {
      if (request.headers.authorization === undefined) {
        response.writeHead(401, { "www-authenticate": 'Digest realm="r", nonce="n-1", qop="auth"' });
      } else response.writeHead(404);
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const resolved = resolveDescription([{ baseUrl: url, digest: { path: "/p", username: "u", password: "p" } }]);
      assert.ok(resolved.ok);
      const run = await runAgainstTarget(resolved.value, { tags: "@DIG-4", strict: false });
      const row = run.judgement.rows.find((r) => r.row.id === "DIG-4");
      assert.equal(row?.verdict, "failed", row?.reason);
    } finally {
      server.close();
    }
  });
});
