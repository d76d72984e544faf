/** `sxd report merge`: several conformance.json side by side, one line per row, one column per server. */
import { escapeXml as escapeHtml } from "../../lib/xml.ts";
import type { ConformanceDocument } from "../conformance-document.ts";
import { cssClass } from "../presentation.ts";

/** Several runs side by side: one line per row, one column per target. */
export function mergedMatrixHtml(docs: ConformanceDocument[]): string {
  const ids = [...new Set(docs.flatMap((d) => d.rows.map((r) => r.id)))];
  const header = docs
    .map((d) => `<th>${escapeHtml(d.target.baseUrl)}<br><small>${escapeHtml(d.overall)}</small></th>`)
    .join("");
  const body = ids
    .map((id) => {
      const first = docs.flatMap((d) => d.rows).find((r) => r.id === id);
      const cells = docs
        .map((d) => {
          const row = d.rows.find((r) => r.id === id);
          const verdict = row && row.scenarios.length > 0 ? row.verdict : "not run";
          return `<td class="${cssClass(verdict)}" title="${escapeHtml(row?.reason ?? "")}">${escapeHtml(verdict)}</td>`;
        })
        .join("");
      return `<tr><th>${id}</th><td>${first?.level.toUpperCase() ?? ""}</td>${cells}</tr>`;
    })
    .join("\n");
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>sxd conformance matrix</title>
<style>
body { font: 14px system-ui, sans-serif; margin: 2rem; } table { border-collapse: collapse; }
td, th { border: 1px solid #ccc; padding: .25rem .6rem; text-align: left; }
.failed { background: #ffd9d6; } .warning { background: #fff2c4; } .passed { background: #d8f5dd; }
.not-run, .not-applicable { background: #eee; } .expected-failure, .fixed { background: #e6e0ff; }
</style></head><body>
<h1>sxd conformance matrix</h1>
<table><tr><th>row</th><th>level</th>${header}</tr>
${body}
</table></body></html>
`;
}
