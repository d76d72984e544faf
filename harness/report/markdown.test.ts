import assert from "node:assert/strict";
import { test } from "node:test";
import { sampleInterop } from "../../test/support/interop-document.ts";
import type { ConformanceDocument } from "../evidence/conformance-document.ts";
import { interopMarkdown, summaryMarkdown } from "./markdown.ts";

type Row = ConformanceDocument["rows"][number];

const scenario = { name: "s", location: "f.feature:1", status: "PASSED", exchanges: [] };
const row = (id: string, level: string, verdict: Row["verdict"], reason?: string): Row => ({
  id,
  level,
  rule: "",
  verdict,
  ...(reason ? { reason } : {}),
  scenarios: [scenario],
});

const doc: ConformanceDocument = {
  suite: { name: "sxd", version: "9.9.9" },
  target: { baseUrl: "http://127.0.0.1:8080" },
  date: "2025-01-01T00:00:00.000Z",
  strict: false,
  overall: "not conformant",
  rows: [
    row("DIG-1", "must", "passed"),
    row("DIG-2", "must", "failed", "401 | where 200 was due\nthe exchange: …"),
    row("DIG-3", "should", "warning", "no <rspauth>"),
    { ...row("DIG-4", "may", "not run"), scenarios: [] },
  ],
};

test("summary.md counts the rows checked by level and lists each one not passed, failures first", () => {
  const text = summaryMarkdown(doc);
  assert.match(text, /^# sxd: not conformant$/m);
  assert.match(text, /^server `http:\/\/127\.0\.0\.1:8080`: 3 rows checked \(sxd 9\.9\.9, /m);
  assert.match(text, /^\| level \| failed \| warning \| passed \|$/m);
  assert.match(text, /^\| MUST \| 1 \| 0 \| 1 \|$/m);
  assert.match(text, /^\| SHOULD \| 0 \| 1 \| 0 \|$/m);
  assert.doesNotMatch(text, /^\| MAY /m, "a level with no row checked has no line");
  const failed = text.indexOf("| DIG-2 | MUST | failed | 401 \\| where 200 was due |");
  const warned = text.indexOf("| DIG-3 | SHOULD | warning | no &lt;rspauth> |");
  assert.ok(failed > 0 && warned > failed, text);
  assert.doesNotMatch(text, /DIG-1 \||DIG-4/, "passed rows and rows not part of the run are not listed");
});

test("a client's summary names its command", () => {
  const client = {
    ...doc,
    target: { baseUrl: "client: sh adapter.sh" },
    client: { command: "sh adapter.sh", runs: [] },
  };
  assert.match(summaryMarkdown(client), /^client `sh adapter\.sh`: 3 rows checked/m);
});

test("an interop run's summary.md: the matrix, then each failed group on one line, escaped as a run's rows are", () => {
  const doc = sampleInterop();
  const [first] = doc.cells;
  if (first) first.why = "the client exited 1 | and said\n<b>no</b>";
  const text = interopMarkdown(doc);
  assert.match(text, /^## sxd interop: 4 failed cells$/m);
  assert.match(text, /^\| curl \| `C\+\.` \| `N\+\+` \|$/m);
  assert.match(text, /^12 cells: 4 succeeded, 4 failed, 2 unsupported, 2 not applicable\.$/m);
  assert.match(
    text,
    /^- curl × strict, digest-get: client \(client CDIG-3\): the client exited 1 \\\| and said &lt;b>no&lt;\/b>$/m,
  );
  assert.match(
    text,
    /^### Failed with no row broken: gaps in the spec or in sxd's rows\n\n- curl × quoting, digest-get: neither: /m,
  );
});
