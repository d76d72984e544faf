import assert from "node:assert/strict";
import { test } from "node:test";
import { conformanceRun, limitsRun, NO_PROVENANCE } from "../../test/support/store-runs.ts";
import type { BundledReference } from "../evidence/described-target.ts";
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
