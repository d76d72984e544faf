import assert from "node:assert/strict";
import { test } from "node:test";
import { conformanceRun, limitsRun, NO_PROVENANCE } from "../../test/support/store-runs.ts";
import type { BundledReference } from "../evidence/described-target.ts";
import type { Exchange } from "../evidence/exchange.ts";
import { failureText } from "../evidence/transcript.ts";
import { type RunDocument, runRecord } from "./records.ts";

/** A run's document as a run against the bundled reference on the port given writes it. */
function bundledRun(port: number, bundled: BundledReference): RunDocument {
  const { document } = conformanceRun({ "DIG-1": "passed" }, { baseUrl: `http://127.0.0.1:${port}` });
  if (document.kind !== "conformance") throw new Error("a conformance run");
  const doc = { ...document.doc, target: { ...document.doc.target, bundled } };
  return { text: JSON.stringify(doc), document: { kind: "conformance", doc } };
}

test("runs against the bundled reference are one target whatever their ports, one per variant and faults", () => {
  const standard = { variant: "standard", faults: [] };
  const faulty = { variant: "standard", faults: ["dig-b", "dig-a"] };
  const targets = [
    bundledRun(40001, standard),
    bundledRun(40777, standard),
    bundledRun(41000, faulty),
    bundledRun(42000, { variant: "standard", faults: ["dig-a", "dig-b"] }),
    conformanceRun({ "DIG-1": "passed" }, { baseUrl: "http://127.0.0.1:40001" }),
  ].map((run) => runRecord(run, NO_PROVENANCE));
  assert.deepEqual(
    targets.map((run) => run.target),
    [
      "the bundled reference",
      "the bundled reference",
      "the bundled reference (faults dig-a, dig-b)",
      "the bundled reference (faults dig-a, dig-b)",
      "http://127.0.0.1:40001",
    ],
  );
  // Its URLs of that run, and which reference it was, stay in the detail.
  assert.deepEqual(targets[1]?.targetDetail, {
    baseUrl: "http://127.0.0.1:40777",
    bundled: standard,
    strict: false,
  });
});

test("a limits run against the bundled reference is named the same way, its URL and described keys in the detail", () => {
  const run = limitsRun((n) => n, 0, "http://127.0.0.1:40123");
  if (run.document.kind !== "limits") throw new Error("a limits run");
  const described = { digest: { path: "/private", username: "demo", password: "•••" } };
  const doc = { ...run.document.doc, described, bundled: { variant: "alternative", faults: [] } };
  const record = runRecord({ text: JSON.stringify(doc), document: { kind: "limits", doc } }, NO_PROVENANCE);
  assert.equal(record.target, "the bundled reference (alternative variant)");
  assert.deepEqual(record.targetDetail, {
    baseUrl: "http://127.0.0.1:40123",
    described,
    bundled: { variant: "alternative", faults: [] },
    repeats: 5,
    memory: "not read",
  });
});

test("the exchange a row's failure quotes is the one kept, not the scenario's last", () => {
  const run = conformanceRun({ "SNAP-11": "failed" });
  if (run.document.kind !== "conformance") throw new Error("a conformance run");
  const scenario = run.document.doc.rows[0]?.scenarios[0];
  if (!scenario) throw new Error("a scenario");
  const put = (status: number, at: string): Exchange => ({
    method: "PUT",
    url: "http://server.test:8080/entries/1",
    requestHeaders: { "if-unmodified-since": at },
    requestBody: "<entry/>",
    response: { status, headers: { date: [at] }, body: "" },
    startedAt: "2026-12-01T00:00:00.000Z",
    durationMs: 2,
  });
  const stale = put(204, "Mon, 07 Dec 2026 10:00:00 GMT");
  const control = put(204, "Mon, 07 Dec 2026 10:00:01 GMT");
  scenario.exchanges = [stale, control];
  scenario.message = failureText("status 412", "status 204", stale);
  const record = runRecord({ text: JSON.stringify(run.document.doc), document: run.document }, NO_PROVENANCE);
  assert.equal(
    JSON.parse(record.rows[0]?.exchange ?? "null").requestHeaders["if-unmodified-since"],
    "Mon, 07 Dec 2026 10:00:00 GMT",
  );
  // A message that quotes none of them: the scenario's last.
  scenario.message = "expected status 412\nbut got status 204";
  const unquoted = runRecord({ text: JSON.stringify(run.document.doc), document: run.document }, NO_PROVENANCE);
  assert.equal(
    JSON.parse(unquoted.rows[0]?.exchange ?? "null").requestHeaders["if-unmodified-since"],
    "Mon, 07 Dec 2026 10:00:01 GMT",
  );
});
