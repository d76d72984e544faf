/**
 * `sxd fuzz` against the reference: a planted weakness (a fault mode) is found within the
 * default budget, shrunk and replayed; the plain reference gives nothing. In-process, one
 * reference each, so the test costs a few seconds.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { after, before, describe, it } from "node:test";
import { runFuzz } from "../cli/fuzz.ts";
import { resolveDescription } from "../harness/description/target.ts";
import { campaign, type FuzzGenerator, loadGenerators, parseBudget, shrink } from "../harness/fuzz/engine.ts";
import { rowsById } from "../harness/judging/catalogue.ts";
import { ATOM_ENTRY_TYPE } from "../lib/media-type.ts";
import { ATOM_NS, escapeXml } from "../lib/xml.ts";
import { REFERENCE_DESCRIPTION, referenceMode, startReference } from "../reference/index.ts";
import { referenceDescriptionFile } from "./support/cli.ts";

async function reference(faults: string[]) {
  const mode = referenceMode(faults, undefined);
  assert.ok(mode.ok);
  return startReference({
    host: "127.0.0.1",
    ports: { base: 0, contacts: 0, messaging: 0 },
    servers: ["base"],
    ...mode.value,
  });
}

async function fuzz(argv: string[]): Promise<{ code: number; text: string }> {
  let text = "";
  const out = new Writable({
    write(chunk, _encoding, done) {
      text += chunk;
      done();
    },
  });
  return { code: await runFuzz(argv, out), text };
}

/** The reference's paths and user: sxd fuzz, like sxd test, takes none of them from silence. */
const DESCRIBED = ["--config", referenceDescriptionFile()];

describe("sxd fuzz", () => {
  let faulty: Awaited<ReturnType<typeof reference>>;
  before(async () => {
    faulty = await reference(["dig-response-prefix"]);
  });
  after(() => faulty.close());

  it("finds a planted weakness within its default budget, writes it, and replays it as still failing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sxd-fuzz-"));
    const run = await fuzz([...DESCRIBED, "--base-url", faulty.urls.base, "--seed", "3", "--report-dir", dir]);
    assert.equal(run.code, 1, run.text);
    assert.match(run.text, /seed 3/);
    const files = readdirSync(join(dir, "fuzz"));
    assert.deepEqual(files, ["DIG-6-granted.json"]);
    const file = join(dir, "fuzz", "DIG-6-granted.json");
    const written = JSON.parse(readFileSync(file, "utf8"));
    assert.match(written.recipe.join(" "), /^response:(empty|cut)/);
    assert.match(written.curl, /^curl -i -X GET -H 'authorization: Digest /);
    assert.equal(written.target.password, undefined, "the password is left out without --show-secrets");
    const replayed = await fuzz([...DESCRIBED, "--base-url", faulty.urls.base, "--replay", file]);
    assert.equal(replayed.code, 1);
    assert.match(replayed.text, /still fails/);
  });

  it("shrinks a combination to the mutation that fails, a smaller request that still fails", async () => {
    const target = resolveDescription([REFERENCE_DESCRIPTION, { baseUrl: faulty.urls.base }]);
    assert.ok(target.ok);
    const [generator] = (await loadGenerators({ target: target.value, timeoutMs: 5000 })) as FuzzGenerator[];
    try {
      assert.equal(await generator.prepare(), undefined);
      const found = ["cnonce:overlong:2000", "response:empty"];
      const trial = await generator.run(found);
      assert.equal(trial.failure?.row, "DIG-6");
      const shrunk = await shrink(generator, found, trial);
      assert.deepEqual(shrunk.recipe, ["response:empty"]);
      const size = (t: { exchanges: Array<{ requestHeaders: Record<string, string> }> }) =>
        t.exchanges.at(-1)?.requestHeaders.authorization?.length ?? 0;
      assert.ok(size(shrunk) < size(trial), `${size(shrunk)} < ${size(trial)}`);
      assert.equal((await generator.run(shrunk.recipe)).failure?.row, "DIG-6");
    } finally {
      await generator.close?.();
    }
  });

  it("finds nothing in the plain reference within the default budget and exits 0", async () => {
    const plain = await reference([]);
    try {
      const run = await fuzz([...DESCRIBED, "--base-url", plain.urls.base, "--seed", "3"]);
      assert.equal(run.code, 0, run.text);
      assert.match(run.text, /no failure found/);
      assert.doesNotMatch(run.text, /not run/, "both generators ran");
    } finally {
      await plain.close();
    }
  });
});

describe("sxd fuzz, the updates generator", () => {
  let faulty: Awaited<ReturnType<typeof reference>>;
  before(async () => {
    faulty = await reference(["snap-500-on-bad-body"]);
  });
  after(() => faulty.close());

  it("finds a 500 for a malformed entry within the default budget, shrinks it and replays it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sxd-fuzz-"));
    const run = await fuzz([...DESCRIBED, "--base-url", faulty.urls.base, "--seed", "7", "--report-dir", dir]);
    assert.equal(run.code, 1, run.text);
    assert.deepEqual(readdirSync(join(dir, "fuzz")), ["SNAP-12-5xx.json"]);
    const file = join(dir, "fuzz", "SNAP-12-5xx.json");
    const written = JSON.parse(readFileSync(file, "utf8"));
    assert.equal(written.generator, "updates");
    assert.equal(written.recipe.length, 1, `shrunk to one mutation: ${written.recipe}`);
    assert.match(written.recipe[0], /^entry:/);
    assert.match(written.curl, /^curl -i -X PUT -H 'if-unmodified-since: /);
    assert.match(written.exchange, /^> PUT [^\n]*\n(.*\n)*< 500/);
    const replayed = await fuzz([...DESCRIBED, "--base-url", faulty.urls.base, "--replay", file]);
    assert.equal(replayed.code, 1, replayed.text);
    assert.match(replayed.text, /SNAP-12 5xx: entry:\S+: still fails/);
  });

  it("shrinks a combination to the mutation the server fails on, over fresh validators each time", async () => {
    const generator = await updatesGenerator(faulty.urls.base);
    try {
      assert.equal(await generator.prepare(), undefined);
      const found = ["ius:rfc850", "type:upper-case", "entry:truncate:200"];
      const trial = await generator.run(found);
      assert.equal(trial.failure?.kind, "5xx", trial.failure?.why);
      const shrunk = await shrink(generator, found, trial);
      assert.deepEqual(shrunk.recipe, ["entry:truncate:1"]);
      assert.equal(shrunk.judged?.method, "PUT");
    } finally {
      await generator.close?.();
    }
  });

  it("judges a reply that is not HTTP, to a GET of an odd snapshot address, as SNAP-12", async () => {
    // In front of the plain reference: every request passed on, but s0 answered with bytes that are no HTTP reply.
    const origin = faulty.urls.base;
    const garbling = createServer(async (request, response) => {
      if (request.url?.endsWith("/s0")) {
        request.socket.end("this is not an HTTP reply\r\n\r\n");
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(([name]) => !["host", "connection", "content-length"].includes(name)),
      ) as Record<string, string>;
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const reply = await fetch(`${origin}${request.url}`, { method: request.method, headers, body });
      const passed = [...reply.headers].filter(
        ([name]) => !["connection", "keep-alive", "transfer-encoding", "content-length"].includes(name),
      );
      response.writeHead(reply.status, Object.fromEntries(passed));
      response.end(Buffer.from(await reply.arrayBuffer()));
    });
    await new Promise<void>((done) => garbling.listen(0, "127.0.0.1", done));
    const generator = await updatesGenerator(`http://127.0.0.1:${(garbling.address() as AddressInfo).port}`);
    try {
      assert.equal(await generator.prepare(), undefined);
      const trial = await generator.run(["path:s0"]);
      assert.deepEqual(trial.failure && [trial.failure.row, trial.failure.kind], ["SNAP-12", "not HTTP"]);
      assert.equal((await generator.run(["path:s01"])).failure, undefined, "the same server's other replies are HTTP");
    } finally {
      await generator.close?.();
      garbling.closeAllConnections();
      await new Promise((done) => garbling.close(done));
    }
  });
});

describe("sxd fuzz, updates sent at once", () => {
  it("more than one in, of the copies sent at once with one read's date, fails SNAP-15; one in passes", async () => {
    const deferred = await reference(["snap-write-deferred"]);
    const plain = await reference([]);
    const [lossy, careful] = [await updatesGenerator(deferred.urls.base), await updatesGenerator(plain.urls.base)];
    try {
      for (const generator of [lossy, careful]) assert.equal(await generator.prepare(), undefined);
      const lost = await lossy.run(["at-once:8"]);
      assert.deepEqual(lost.failure && [lost.failure.row, lost.failure.kind], ["SNAP-15", "lost update"]);
      assert.equal(lost.judged?.method, "PUT");
      assert.equal((await lossy.run(["at-once:8", "if-match:star"])).failure, undefined, "If-Match: * lets each in");
      assert.equal((await careful.run(["at-once:8"])).failure, undefined);
    } finally {
      for (const generator of [lossy, careful]) await generator.close?.();
      await Promise.all([deferred.close(), plain.close()]);
    }
  });
});

describe("sxd fuzz, on a server of the test's own that takes a DOCTYPE", () => {
  let expands = true;
  // Stores one title per address and, while `expands`, expands internal entities as a naive parser would.
  const naive = createServer(async (request, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    const path = request.url ?? "";
    if (request.method === "DELETE") {
      store.delete(path);
      return void response.writeHead(204).end();
    }
    if (request.method === "GET") {
      const held = store.get(path);
      if (!held) return void response.writeHead(404).end();
      response.writeHead(200, { "content-type": ATOM_ENTRY_TYPE, "last-modified": held.at });
      return void response.end(
        `<entry xmlns="${ATOM_NS}"><id>urn:x</id><title>${escapeXml(held.title)}</title><author><name>a</name></author><content>c</content></entry>`,
      );
    }
    const entities = new Map([...body.matchAll(/<!ENTITY (\w+) "([^"]*)">/g)].map((m) => [m[1], m[2]]));
    const expand = (text: string, depth: number): string =>
      text.replace(/&(\w+);/g, (whole, name) =>
        depth < 4 && entities.has(name) ? expand(entities.get(name) ?? "", depth + 1) : whole,
      );
    const title = /<title>([^<]*)<\/title>/.exec(body)?.[1];
    if (title === undefined) return void response.writeHead(400).end();
    store.set(path, { title: expands ? expand(title, 0) : title, at: new Date().toUTCString() });
    response.writeHead(request.headers["if-none-match"] ? 201 : 204).end();
  });
  const store = new Map<string, { title: string; at: string }>();
  let generator: FuzzGenerator;
  before(async () => {
    await new Promise<void>((done) => naive.listen(0, "127.0.0.1", done));
    generator = await updatesGenerator(`http://127.0.0.1:${(naive.address() as AddressInfo).port}`);
    assert.equal(await generator.prepare(), undefined);
  });
  after(async () => {
    await generator.close?.();
    naive.closeAllConnections();
    await new Promise((done) => naive.close(done));
  });

  it("an entity expanded into the title fails SNAP-14 (SNAP-12 where the catalogue has no SNAP-14), plain or nested", async () => {
    const row = rowsById().has("SNAP-14") ? "SNAP-14" : "SNAP-12";
    for (const recipe of [["entry:doctype"], ["entry:doctype-nested"]]) {
      const trial = await generator.run(recipe);
      assert.deepEqual(trial.failure && [trial.failure.row, trial.failure.kind], [row, "expanded"], recipe[0]);
    }
  });

  it("the same entry stored with its entity reference as text passes", async () => {
    expands = false;
    assert.equal((await generator.run(["entry:doctype"])).failure, undefined);
  });
});

describe("sxd fuzz, its limits", () => {
  it("an unreachable target is one line on stderr and exit 2, nothing else", async () => {
    const run = fuzz([...DESCRIBED, "--base-url", "http://127.0.0.1:1", "--seed", "1"]);
    await assert.rejects(run, (error: Error) => {
      assert.match(error.message, /^the target did not answer: .*connection refused/);
      assert.doesNotMatch(error.message, /\n/);
      return true;
    });
  });

  it("a base URL alone names no resource to fuzz: it says which keys to state, before a request", async () => {
    const run = fuzz(["--base-url", "http://127.0.0.1:1", "--seed", "1"]);
    await assert.rejects(run, (error: Error) => {
      assert.match(
        error.message,
        /^nothing to fuzz: credentials: .*state digest\.path, digest\.username, digest\.password; /,
      );
      assert.match(error.message, /updates: .*state snapshots\.collection$/);
      return true;
    });
  });

  it("a budget in seconds ends the campaign once that much time has passed, counted on its clock", async () => {
    assert.deepEqual(parseBudget("30s"), { seconds: 30 });
    assert.deepEqual(parseBudget("30"), { requests: 30 });
    assert.equal(parseBudget("0s"), undefined);
    let clock = 0;
    const ticking: FuzzGenerator = {
      name: "ticking",
      prepare: async () => undefined,
      describe: () => ({}),
      draw: () => ["x"],
      run: async () => {
        clock += 250;
        return { exchanges: [] };
      },
      smaller: () => [],
    };
    const run = await campaign(
      { ready: [ticking], skipped: [] },
      { random: Math.random, budget: { seconds: 2 }, now: () => clock },
    );
    assert.equal(run.trials, 8, "2 s of trials that take 250 ms each");
    assert.equal(run.elapsedMs, 2000);
  });
});

async function updatesGenerator(baseUrl: string): Promise<FuzzGenerator> {
  const target = resolveDescription([REFERENCE_DESCRIPTION, { baseUrl }]);
  assert.ok(target.ok);
  const generators = await loadGenerators({ target: target.value, timeoutMs: 5000 });
  const generator = generators.find((g) => g.name === "updates");
  assert.ok(generator, "an updates generator is loaded");
  for (const other of generators) if (other !== generator) await other.close?.();
  return generator;
}
