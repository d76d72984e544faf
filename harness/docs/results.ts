/**
 * How other servers fare: the conformance reports named by `sxd docs --results`, one column
 * per server, each row's verdict with its reason (as `sxd report merge` lines them up).
 */
import { escapeXml as escapeHtml } from "../../lib/xml.ts";
import type { ConformanceDocument } from "../conformance-document.ts";
import { cssClass } from "../presentation.ts";

export interface ServerResults {
  doc: ConformanceDocument;
  /** The server's report (its conformance.html), relative to the site; absent when there is none. */
  reportHref?: string;
}

export interface Cell {
  verdict: string;
  reason?: string;
}

/** One server's verdict on a row; a row its run did not include is "not run". */
export function cellOf(results: ServerResults, rowId: string): Cell {
  const row = results.doc.rows.find((r) => r.id === rowId);
  if (!row || row.scenarios.length === 0) return { verdict: "not run", reason: "not part of this run" };
  return { verdict: row.verdict, reason: row.reason };
}

export function serverHeading(results: ServerResults): string {
  const name = escapeHtml(results.doc.target.baseUrl);
  const label = results.reportHref ? `<a href="${escapeHtml(results.reportHref)}">${name}</a>` : name;
  return `${label}<br><small>${escapeHtml(results.doc.overall)}, ${escapeHtml(results.doc.date.slice(0, 10))}</small>`;
}

export function verdictHtml(cell: Cell): string {
  return `<span class="verdict ${cssClass(cell.verdict)}">${escapeHtml(cell.verdict)}</span>`;
}

/** Under a row: each server's verdict and reason. Empty when no results were given. */
export function rowResultsHtml(rowId: string, servers: ServerResults[]): string {
  if (servers.length === 0) return "";
  const lines = servers
    .map((server) => {
      const cell = cellOf(server, rowId);
      return `<tr><th scope="row">${serverHeading(server)}</th><td>${verdictHtml(cell)}</td><td>${escapeHtml(cell.reason ?? "")}</td></tr>`;
    })
    .join("\n");
  return `<table class="results"><caption>Who passes ${rowId}</caption>
<tr><th scope="col">server</th><th scope="col">verdict</th><th scope="col">reason</th></tr>
${lines}
</table>`;
}
