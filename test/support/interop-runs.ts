// What the tests of `sxd interop` hand it and read back: an implementation's own verdict as its
// sxd test or sxd test-client run wrote it (given, it keeps a run to its cells), and what a cell
// found, without its timings, to compare two runs cell by cell.
import type { InteropCell } from "../../harness/evidence/interop-document.ts";

/** A conformance.json as JSON text, with its overall verdict and rows. */
export function givenConformance(overall = "conformant", rows: object[] = []): string {
  return JSON.stringify({
    suite: { name: "sxd", version: "0" },
    target: { baseUrl: "http://127.0.0.1:1" },
    date: "2026-01-01T00:00:00Z",
    strict: false,
    overall,
    rows,
  });
}

export const cellFound = (cell: InteropCell) =>
  `${cell.client} × ${cell.server} ${cell.task}: ${cell.result} ${cell.blame} client[${cell.rows.client.map((r) => r.id)}] server[${cell.rows.server.map((r) => r.id)}]`;
