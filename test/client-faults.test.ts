/**
 * Every client row can fail, each on its own row only: the example client passes every row
 * with its description (examples/clients/node/client.json), and each faulty client, the example
 * with one thing changed (test/fixtures/clients/faults.mjs, switched by CLIENT_FAULT), fails
 * its row and no other. A MAY row fails only where the description claims the option, so its
 * faulty client comes with that claim. The list of faulty clients is held against the
 * catalogue: a new client row without one fails here.
 *
 * The example client is graded by an sxd process, as a user runs it; its faulty twins by the
 * same command's code in this process (cli/test-client.ts runTestClient, the argv, reports and
 * exit code as sxd's), one after the other, sharing the step definitions: each process would
 * spend more on loading sxd and cucumber than on grading.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it, test } from "node:test";
import type { ClientDescription } from "../harness/client/description.ts";
import type { TaskName } from "../harness/client/tasks.ts";
import { loadRows } from "../harness/judging/catalogue.ts";
import { EXAMPLE_CLIENT, exampleClient, sxd, sxdHere, tempDir } from "./support/cli.ts";

const path = (relative: string) => new URL(relative, import.meta.url).pathname;
const ADAPTER = EXAMPLE_CLIENT;
const EXAMPLE_DESCRIPTION = path("../examples/clients/node/client.json");
const FAULTS = path("./fixtures/clients/faults.mjs");

interface Faulty {
  fault: string;
  task: TaskName;
  /** What the description claims, where the row is a MAY that only a claim makes a rule. */
  claims?: ClientDescription;
}

const FAULTY: Record<string, Faulty> = {
  "CDIG-1": { fault: "drops-opaque", task: "digest-get" },
  "CDIG-2": { fault: "wrong-response", task: "digest-get" },
  "CDIG-3": { fault: "leaks-secret", task: "digest-get" },
  "CDIG-4": { fault: "auth-int-empty-body", task: "digest-post" },
  "CDIG-5": { fault: "nc-from-two", task: "digest-get" },
  "CDIG-6": { fault: "ignores-stale", task: "digest-get", claims: { digest: { retriesStale: true } } },
  "CDIG-7": { fault: "last-algorithm", task: "digest-get" },
  "CDIG-8": { fault: "ignores-rspauth", task: "digest-get", claims: { digest: { checksRspauth: true } } },
  "CDIG-9": { fault: "quotes-algorithm", task: "digest-get" },
  "CDIG-10": { fault: "retries-refused", task: "digest-get" },
  "CEXP-1": { fault: "builds-import-address", task: "export" },
  "CEXP-2": { fault: "posts-a-body", task: "export" },
  "CEXP-3": { fault: "stops-at-303", task: "export" },
  "CEXP-4": { fault: "uploads-twice", task: "export", claims: { export: { fallback: true } } },
  "CSNAP-1": { fault: "untyped-put", task: "update" },
  "CSNAP-2": { fault: "unconditional-put", task: "update" },
  "CSNAP-3": { fault: "new-id", task: "update" },
  "CSNAP-4": { fault: "blind-retry", task: "update" },
  "CSNAP-5": { fault: "built-links", task: "history" },
};

/** Faults real clients have, beyond each row's first: each still fails its row and no other. */
const MORE_FAULTY: Array<[string, Faulty]> = [
  ["CDIG-1", { fault: "mixes-challenges", task: "digest-get" }],
  ["CDIG-4", { fault: "auth-int-when-forced-empty-body", task: "digest-post" }],
];

interface Verdicts {
  code: number | null;
  /** Row to verdict and reason, for the rows the run judged. */
  rows: Map<string, { verdict: string; reason?: string }>;
}

/** `sxd test-client --run command --report-dir <new folder> ...args`: its exit code and its rows. */
async function graded(
  command: string,
  args: string[],
  run: (argv: string[]) => Promise<number | null>,
): Promise<Verdicts> {
  const dir = tempDir();
  const code = await run(["test-client", "--run", command, "--report-dir", dir, ...args]);
  const report = JSON.parse(readFileSync(join(dir, "conformance.json"), "utf8")) as {
    rows: Array<{ id: string; verdict: string; reason?: string }>;
  };
  return { code, rows: new Map(report.rows.map((row) => [row.id, row])) };
}

/** In an sxd process of its own, as a user runs it. */
const asProcess = async (argv: string[]) => (await sxd(argv)).code;

/** Through the command's code in this process, one run at a time. */
const inThisProcess = async (argv: string[]) => (await sxdHere(argv)).code;

function gradedFaulty({ fault, task, claims }: Faulty): Promise<Verdicts> {
  const args = ["--tasks", task];
  if (claims) {
    const description = join(tempDir(), "client.json");
    writeFileSync(description, JSON.stringify(claims));
    args.push("--config", description);
  }
  return graded(`CLIENT_FAULT=${fault} ${exampleClient([FAULTS])}`, args, inThisProcess);
}

const LEVELS = new Map(loadRows("client").map((row) => [row.id, row.level]));

const failing = (verdicts: Verdicts) =>
  [...verdicts.rows].filter(([, row]) => row.verdict === "failed" || row.verdict === "warning").map(([id]) => id);

test("every client row has a faulty client; a MAY row's comes with the claim that makes it a rule", () => {
  const rows = loadRows("client");
  assert.deepEqual(Object.keys(FAULTY).sort(), rows.map((row) => row.id).sort());
  for (const row of rows) assert.equal(FAULTY[row.id]?.claims !== undefined, row.level === "may", row.id);
});

describe("sxd test-client against the example client and its faulty twins", () => {
  const entries = [...Object.entries(FAULTY), ...MORE_FAULTY];
  const example = graded(ADAPTER, ["--config", EXAMPLE_DESCRIPTION], asProcess);
  const runs = Promise.all(entries.map(([, faulty]) => gradedFaulty(faulty)));

  it("the example client, as its description states it, passes every client row", async () => {
    const verdicts = await example;
    assert.deepEqual(
      [...verdicts.rows]
        .filter(([, row]) => row.verdict !== "passed")
        .map(([id, row]) => `${id} ${row.verdict}: ${row.reason}`),
      [],
    );
    assert.equal(verdicts.code, 0);
  });

  for (const [index, [row, faulty]] of entries.entries()) {
    it(`CLIENT_FAULT=${faulty.fault} fails ${row} and no other row`, async () => {
      const verdicts = (await runs)[index];
      assert.ok(verdicts);
      assert.deepEqual(failing(verdicts), [row], JSON.stringify([...verdicts.rows]));
      // A SHOULD row warns and does not make the run not conformant (without --strict); the others do.
      const should = LEVELS.get(row) === "should";
      assert.equal(verdicts.rows.get(row)?.verdict, should ? "warning" : "failed");
      assert.ok(verdicts.rows.get(row)?.reason, `${row} says why`);
      assert.equal(verdicts.code === 1, !should, `exit ${verdicts.code}`);
    });
  }
});
