import assert from "node:assert/strict";
import { test } from "node:test";
import { conformanceRun, interopRun, limitsRun, NO_PROVENANCE } from "../../test/support/store-runs.ts";
import { type HistoryDocument, historyOf } from "./history.ts";
import { runRecord } from "./records.ts";
import {
  failedShare,
  failureAndFix,
  intermittentLabels,
  type Observation,
  rowHistory,
  stretchesOf,
} from "./stretches.ts";
import { caseTrend, type MeasuredPoint } from "./trend.ts";

let runs = 0;
/** A run's verdict on a row; `label` null for a run without one. */
function seen(verdict: string, label: string | null, extra: Partial<Observation> = {}): Observation {
  runs++;
  const at = {
    run: `run-${runs}`,
    label,
    date: `2026-01-${String(runs).padStart(2, "0")}`,
    folder: null,
    jobUrl: null,
  };
  return { at, verdict, note: verdict === "failed" ? "got 500" : null, intermittent: false, repeats: null, ...extra };
}

test("runs of one verdict collapse into one stretch, in order, each with its first and last run", () => {
  const history = [
    seen("passed", "a"),
    seen("passed", "a"),
    seen("failed", "b"),
    seen("failed", "b"),
    seen("failed", "c"),
    seen("passed", "d"),
  ];
  const stretches = stretchesOf(history);
  assert.deepEqual(
    stretches.map((s) => [s.verdict, s.runs, s.first.label, s.last.label, s.note]),
    [
      ["passed", 2, "a", "a", null],
      ["failed", 3, "b", "c", "got 500"],
      ["passed", 1, "d", "d", null],
    ],
  );
  assert.deepEqual(stretches[1]?.first, history[2]?.at);
});

test("first failed is the first run of the latest failure; fixed by, the first run that held after it", () => {
  const twice = [
    seen("failed", "a"),
    seen("passed", "b"),
    seen("passed", "c"),
    seen("warning", "d"),
    seen("not run", "e"),
    seen("passed", "f"),
  ];
  const { firstFailed, fixedBy } = failureAndFix(twice);
  assert.equal(firstFailed?.label, "d", "the latest failure, not the first");
  assert.equal(fixedBy?.label, "f", "a run that did not judge the row fixes nothing");
  const still = failureAndFix([seen("passed", "a"), seen("failed", "b"), seen("failed", "c")]);
  assert.equal(still.firstFailed?.label, "b");
  assert.equal(still.fixedBy, null, "it fails still");
  assert.deepEqual(failureAndFix([seen("passed", "a"), seen("not run", "b")]), { firstFailed: null, fixedBy: null });
});

test("a row that changed once between labels and stayed is a change, not intermittent", () => {
  const changed = [
    seen("passed", "a"),
    seen("passed", "a"),
    seen("failed", "b"),
    seen("failed", "b"),
    seen("passed", "c"),
  ];
  const history = rowHistory("DIG-6", changed);
  assert.equal(history.intermittent, false);
  assert.deepEqual(history.intermittentLabels, []);
  assert.equal(history.failedShare, 0.4);
});

test("verdicts that differ within one label are intermittent, with the share of runs that failed", () => {
  const flaky = [
    seen("passed", "a"),
    seen("failed", "a"),
    seen("passed", "a"),
    seen("passed", "b"),
    seen("not run", "b"),
  ];
  const history = rowHistory("SNAP-7", flaky);
  assert.equal(history.intermittent, true);
  assert.deepEqual(history.intermittentLabels, ["a"]);
  assert.equal(history.failedShare, 0.25, "1 of the 4 runs that judged it");
  // "not run" beside a verdict is no disagreement; nor are unlabelled runs compared with each other.
  assert.deepEqual(intermittentLabels([seen("passed", "x"), seen("not run", "x")]), []);
  assert.deepEqual(intermittentLabels([seen("passed", null), seen("failed", null)]), []);
});

test("a repeat group that disagreed is intermittent alone, and its repeats count in the share", () => {
  const group = seen("failed", null, { intermittent: true, repeats: { failed: 3, passed: 17 } });
  assert.deepEqual(intermittentLabels([group]), [`run ${group.at.run}`]);
  assert.equal(failedShare([group, seen("passed", null)]), 0.143, "3 of 21: the group's 20 repeats and one run");
  const agreed = seen("failed", "z", { repeats: { failed: 20 } });
  assert.deepEqual(intermittentLabels([agreed]), []);
});

function point(label: string, lowerQuartile: number, spread: number, size = 1000): MeasuredPoint {
  runs++;
  const at = { run: `run-${runs}`, label, date: "2026-01-01", folder: null, jobUrl: null };
  return { at, caseId: "LIM-1", series: "GET", unit: "ms", size, lowerQuartile, spread, memory: null };
}

test("the limits trend flags a label whose cost at the largest size rose past every earlier run's upper quartile", () => {
  const trend = caseTrend([
    point("v1", 10, 2),
    point("v1", 11, 2, 100),
    point("v1", 11, 1),
    point("v2", 12.5, 1), // above both of v1's upper quartiles at 1000 (12 and 12)
    point("v3", 11.5, 1),
    point("v4", 20, 3),
  ]);
  assert.equal(trend?.size, 1000);
  assert.deepEqual(
    trend?.labels.map((l) => [l.label, l.runs, l.lowerQuartile, l.risen]),
    [
      ["v1", 2, 10.5, false],
      ["v2", 1, 12.5, true],
      ["v3", 1, 11.5, false],
      ["v4", 1, 20, true],
    ],
  );
  assert.equal(trend?.risen, true);
  const flat = caseTrend([point("v1", 10, 2), point("v2", 11.9, 2)]);
  assert.equal(flat?.risen, false, "11.9 lies within v1's 10 to 12");
});

test("history.json reads rows, interop cells and limits per target from the runs' records", () => {
  const at = (n: number, label: string) => ({ ...NO_PROVENANCE, label, folder: `/reports/${n}` });
  const stored = [
    runRecord(conformanceRun({ "DIG-1": "passed", "DIG-2": "passed" }, { at: 1 }), at(1, "a")),
    runRecord(conformanceRun({ "DIG-1": "passed", "DIG-2": "failed" }, { at: 2 }), at(2, "b")),
    runRecord(conformanceRun({ "DIG-1": "passed", "DIG-2": "passed" }, { at: 3 }), at(3, "c")),
    runRecord(interopRun({ "curl/ref/digest-get": "succeeded" }, 4), at(4, "a")),
    runRecord(interopRun({ "curl/ref/digest-get": "failed" }, 5), at(5, "b")),
    runRecord(
      limitsRun((n) => n / 100, 6),
      at(6, "a"),
    ),
    runRecord(
      limitsRun((n) => n / 10, 7),
      at(7, "b"),
    ),
  ];
  const history = historyOf(stored, "store.db", { rows: ["DIG-2", "curl/ref/digest-get", "LIM-1"] });
  assert.deepEqual(
    history.targets.map((t) => [t.target, t.kinds, t.runs]),
    [
      ["http://server.test:8080", ["test", "limits"], 5],
      ["interop: ref", ["interop"], 2],
    ],
  );
  const [server, interop] = history.targets;
  assert.deepEqual(
    server?.rows.map((r) => r.id),
    ["DIG-2"],
    "the filter's rows only",
  );
  assert.equal(server?.rows[0]?.firstFailed?.folder, "/reports/2");
  assert.equal(server?.rows[0]?.fixedBy?.label, "c");
  assert.equal(interop?.cells[0]?.firstFailed?.label, "b");
  assert.match(interop?.cells[0]?.stretches[1]?.note ?? "", /^blame: server; /);
  assert.deepEqual(
    server?.limits.map((t) => [t.caseId, t.size, t.labels.map((l) => l.risen)]),
    [["LIM-1", 1000, [false, true]]],
  );
});

test("the text shows a row's latest stretches, saying how many came before", async () => {
  const { historyText } = await import("./history-text.ts");
  const flaky = Array.from({ length: 20 }, (_, n) => seen(n % 2 === 0 ? "passed" : "failed", "v1"));
  const doc = {
    kind: "sxd-history",
    version: 1,
    store: "s.db",
    filter: {},
    runs: 20,
    targets: [
      {
        target: "http://t",
        kinds: ["test"],
        runs: 20,
        first: flaky[0]?.at,
        last: flaky[19]?.at,
        rows: [rowHistory("SNAP-7", flaky)],
        cells: [],
        limits: [],
      },
    ],
  } as HistoryDocument;
  const text = historyText(doc);
  assert.match(text, /SNAP-7: 14 earlier stretches \(--json has them all\); passed in 1 run \(v1\); failed in 1 run/);
  assert.equal(text.match(/ in 1 run /g)?.length, 5, "five stretches and the latest");
  assert.match(text, /failed since \d{4}-\d{2}-\d{2} at v1, 1 run\n/);
  assert.match(text, /INTERMITTENT SNAP-7: broken in 50% of the runs that judged it \(v1\)/);
});

test("a target's rows come in the order of their names, whichever run named them first", () => {
  const at = (n: number) => ({ ...NO_PROVENANCE, label: "a", folder: `/reports/${n}` });
  const stored = [
    runRecord(conformanceRun({ "SNAP-4": "passed", "DIG-10": "passed" }, { at: 1 }), at(1)),
    runRecord(conformanceRun({ "DIG-2": "passed", "DIG-1": "passed" }, { at: 2 }), at(2)),
  ];
  assert.deepEqual(
    historyOf(stored, "store.db").targets[0]?.rows.map((r) => r.id),
    ["DIG-1", "DIG-2", "DIG-10", "SNAP-4"],
  );
});
