/**
 * `sxd report merge`: several conformance.json side by side, one line per row, one column per
 * run. Servers' runs (`sxd test`) and clients' (`sxd test-client`) may be merged together: the
 * server rows come first, then the client rows, and a run shows a dash on the other side's rows.
 */
import { escapeXml as escapeHtml } from "../../lib/xml.ts";
import { type ConformanceDocument, documentSide, verdictOn } from "../evidence/conformance-document.ts";
import { cssClass, otherSideCellHtml, subjectHtml } from "../evidence/presentation.ts";
import type { Side } from "../judging/catalogue.ts";

export interface MatrixRow {
  id: string;
  level: string;
  side: Side;
}

/** The rows of the runs, first seen first: the server runs' rows, then the client runs'. */
export function matrixRows(docs: ConformanceDocument[]): MatrixRow[] {
  const seen = new Map<string, MatrixRow>();
  for (const side of ["server", "client"] as const) {
    for (const doc of docs.filter((d) => documentSide(d) === side))
      for (const row of doc.rows) if (!seen.has(row.id)) seen.set(row.id, { id: row.id, level: row.level, side });
  }
  return [...seen.values()];
}

/** One run's cell on a row: its verdict ("not run" where it left the row out), or a dash for the other side's rows. */
export function matrixCellHtml(doc: ConformanceDocument, { id, side }: MatrixRow): string {
  const cell = verdictOn(doc, id, side);
  if (!cell) return otherSideCellHtml(doc, side);
  return `<td class="${cssClass(cell.verdict)}" title="${escapeHtml(cell.reason ?? "")}">${escapeHtml(cell.verdict)}</td>`;
}

/** Several runs side by side: one line per row, one column per run, headed by the server's URL or the client's command. */
export function mergedMatrixHtml(docs: ConformanceDocument[]): string {
  const header = docs.map((d) => `<th>${subjectHtml(d)}<br><small>${escapeHtml(d.overall)}</small></th>`).join("");
  const body = matrixRows(docs)
    .map((row) => {
      const cells = docs.map((d) => matrixCellHtml(d, row)).join("");
      return `<tr><th>${row.id}</th><td>${row.level.toUpperCase()}</td>${cells}</tr>`;
    })
    .join("\n");
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>sxd conformance matrix</title>
<style>
body { font: 14px system-ui, sans-serif; margin: 2rem; } table { border-collapse: collapse; }
td, th { border: 1px solid #ccc; padding: .25rem .6rem; text-align: left; }
.failed { background: #ffd9d6; } .warning { background: #fff2c4; } .passed { background: #d8f5dd; }
.not-run, .not-applicable { background: #eee; } .expected-failure, .fixed { background: #e6e0ff; }
.other-side { color: #888; text-align: center; }
</style></head><body>
<h1>sxd conformance matrix</h1>
<table><tr><th>row</th><th>level</th>${header}</tr>
${body}
</table></body></html>
`;
}
