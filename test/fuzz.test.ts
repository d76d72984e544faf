/**
 * `sxd fuzz` against the reference: a planted weakness (a fault mode) is found within the
 * default budget, shrunk and replayed; the plain reference gives nothing. In-process, one
 * reference each, so the test costs a few seconds.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { after, before, describe, it } from "node:test";
import { runFuzz } from "../cli/fuzz.ts";
import { type FuzzGenerator, loadGenerators, shrink } from "../harness/fuzz.ts";
import { resolveDescription } from "../harness/target.ts";
import { REFERENCE_DESCRIPTION, referenceMode, startReference } from "../reference/index.ts";

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

describe("sxd fuzz", () => {
  let faulty: Awaited<ReturnType<typeof reference>>;
  before(async () => {
    faulty = await reference(["dig-response-prefix"]);
  });
  after(() => faulty.close());

  it("finds a planted weakness within its default budget, writes it, and replays it as still failing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sxd-fuzz-"));
    const run = await fuzz(["--base-url", faulty.urls.base, "--seed", "3", "--report-dir", dir]);
    assert.equal(run.code, 1, run.text);
    assert.match(run.text, /seed 3/);
    const files = readdirSync(join(dir, "fuzz"));
    assert.deepEqual(files, ["DIG-6-granted.json"]);
    const file = join(dir, "fuzz", "DIG-6-granted.json");
    const written = JSON.parse(readFileSync(file, "utf8"));
    assert.match(written.recipe.join(" "), /^response:(empty|cut)/);
    assert.match(written.curl, /^curl -i -X GET -H 'authorization: Digest /);
    assert.equal(written.target.password, undefined, "the password is left out without --show-secrets");
    const replayed = await fuzz(["--base-url", faulty.urls.base, "--replay", file]);
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

  it("finds nothing in the plain reference and exits 0", async () => {
    const plain = await reference([]);
    try {
      const run = await fuzz(["--base-url", plain.urls.base, "--seed", "3", "--budget", "200"]);
      assert.equal(run.code, 0, run.text);
      assert.match(run.text, /no failure found/);
    } finally {
      await plain.close();
    }
  });
});
