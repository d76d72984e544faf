/**
 * How other implementations fare: the conformance reports named by `sxd docs --results`, one
 * column per run, each row's verdict with its reason (as `sxd report merge` lines them up). A
 * server's run (`sxd test`) speaks for the server rows, a client's (`sxd test-client`) for the
 * client rows; neither says anything about the other side's.
 */
import { escapeXml as escapeHtml } from "../../lib/xml.ts";
import { type Cell, type ConformanceDocument, verdictOn } from "../evidence/conformance-document.ts";
import { cssClass, otherSideCellHtml, subjectHtml } from "../evidence/presentation.ts";
import { type Row, sideOf } from "../judging/catalogue.ts";

export interface RunResults {
  doc: ConformanceDocument;
  /** The run's report (its conformance.html), relative to the site; absent when there is none. */
  reportHref?: string;
}

/** One run's verdict on a row; undefined where the run judged the other side; "not run" where it left the row out. */
export function cellOf(results: RunResults, row: Row): Cell | undefined {
  return verdictOn(results.doc, row.id, sideOf(row));
}

export function runHeading(results: RunResults): string {
  const { doc } = results;
  return `${subjectHtml(doc, results.reportHref)}<br><small>${escapeHtml(doc.overall)}, ${escapeHtml(doc.date.slice(0, 10))}</small>`;
}

/** An index cell: the verdict, or a dash where the run judged the other side. */
export function indexCellHtml(results: RunResults, row: Row): string {
  const cell = cellOf(results, row);
  if (!cell) return otherSideCellHtml(results.doc, sideOf(row));
  return `<td title="${escapeHtml(cell.reason ?? "")}">${verdictHtml(cell)}</td>`;
}

export function verdictHtml(cell: Cell): string {
  return `<span class="verdict ${cssClass(cell.verdict)}">${escapeHtml(cell.verdict)}</span>`;
}

/** Under a row: the verdict and reason of each run of the row's side. Empty when there is none. */
export function rowResultsHtml(row: Row, results: RunResults[]): string {
  const lines = results.flatMap((run) => {
    const cell = cellOf(run, row);
    if (!cell) return [];
    return [
      `<tr><th scope="row">${runHeading(run)}</th><td>${verdictHtml(cell)}</td><td>${escapeHtml(cell.reason ?? "")}</td></tr>`,
    ];
  });
  if (lines.length === 0) return "";
  return `<table class="results"><caption>Who passes ${row.id}</caption>
<tr><th scope="col">${sideOf(row)}</th><th scope="col">verdict</th><th scope="col">reason</th></tr>
${lines.join("\n")}
</table>`;
}
