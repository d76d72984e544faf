/**
 * interop.html: every client against every server, clients as rows and servers as columns, a
 * mark per task in each cell linking to the cell's evidence page; beside each name its own
 * verdict. The matrix comes first; the failed cells no row explains (`neither`) follow, as gaps
 * in the spec or in sxd's rows, one entry per pair and reason; an interop score per behaviour. Filters (task, result, blame, client, server)
 * keep their state in the URL's fragment; without JavaScript the page shows everything.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { escapeXml as escapeHtml } from "../../lib/xml.ts";
import type { CellResult, InteropCell, InteropDocument, OwnVerdict } from "../evidence/interop-document.ts";
import { interopScores, scoreText } from "../evidence/interop-score.ts";
import { REPORT_FILES } from "../evidence/report-folder.ts";
import { failureGroups, tasksText } from "./interop-cells.ts";
import { brokenRowsHtml, evidenceHtml, readEvidence } from "./interop-evidence.ts";
import { INTEROP_CSS, markText, resultText } from "./interop-style.ts";

const RESULTS: CellResult[] = ["succeeded", "failed", "unsupported", "not applicable"];
/** "none" stands for a cell that has no blame (it did not fail). */
const BLAMES = ["client", "server", "both", "neither", "none"];

export interface InteropHtmlOptions {
  /** An implementation's report (its conformance.json, relative to the report dir) → the link to show. */
  reportHref?: (report: string) => string;
}

/** Writes interop.html into reportDir and an index.html into each cell's evidence folder. */
export function writeInteropHtml(reportDir: string, doc: InteropDocument): void {
  const root = resolve(reportDir);
  mkdirSync(root, { recursive: true });
  // A report's own page is conformance.html beside its conformance.json, where one was written.
  const reportHref = (report: string) => {
    const html = join(dirname(report), REPORT_FILES.conformanceHtml);
    return existsSync(join(root, html)) ? html.split(sep).join("/") : report;
  };
  writeFileSync(join(root, REPORT_FILES.interopHtml), interopHtml(doc, { reportHref }));
  for (const cell of doc.cells) {
    const folder = evidenceFolder(root, cell.evidence);
    if (!folder) continue;
    mkdirSync(folder, { recursive: true });
    const back = relative(folder, join(root, REPORT_FILES.interopHtml)).split(sep).join("/");
    writeFileSync(join(folder, "index.html"), evidenceHtml(cell, readEvidence(folder), back));
  }
}

/** The evidence folder inside the report dir; undefined for a path that leads out of it. */
function evidenceFolder(root: string, evidence: string): string | undefined {
  const folder = resolve(root, evidence);
  return folder.startsWith(root + sep) ? folder : undefined;
}

/** A cell's evidence page, relative to the report dir, each segment encoded (names are the user's). */
export function evidenceHref(cell: Pick<InteropCell, "evidence">): string {
  const segments = cell.evidence.split("/").filter((s) => s.length > 0);
  return [...segments.map(encodeURIComponent), "index.html"].join("/");
}

export function interopHtml(doc: InteropDocument, options: InteropHtmlOptions = {}): string {
  const shard = doc.shard.count > 1 ? ` · shard ${doc.shard.index} of ${doc.shard.count}` : "";
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>sxd interop: ${doc.clients.length} clients × ${doc.servers.length} servers</title>
<style>${INTEROP_CSS}</style></head><body>
<h1>sxd interop</h1>
<div class="meta">${doc.clients.length} clients × ${doc.servers.length} servers, ${doc.cells.length} cells · ${escapeHtml(doc.startedAt)} to ${escapeHtml(doc.finishedAt)}${shard}</div>
${filtersHtml(doc)}
${matrixHtml(doc, options)}
${gapsHtml(doc)}
${scoresHtml(doc)}
${LEGEND}
<script>${FILTER_SCRIPT}</script>
</body></html>
`;
}

const FILTER_SCRIPT = readFileSync(new URL("./interop-filter.js", import.meta.url), "utf8").replace(
  /<\/script/gi,
  "<\\/script",
);

const LEGEND = `<h2>How to read it</h2>
<p>Each cell is one client against one server, a line per task: ✓ the task succeeded (the client exited 0 and the
effect is on the server); ✗ it failed, followed by whom sxd blames: <b>client</b> or <b>server</b> (that side broke
a row in the exchange sxd saw between them), <b>both</b>, or <b>neither</b> (no row explains the failure: the spec or
sxd's rows miss something); blame goes to the breach that stopped the exchange, and other breaches are listed on
the cell's page as <i>also broken</i>; a failure with no blame is a limit of the run (the client killed for time, the
server not up); <b>unsupported</b>, the client does not do the task (it exited 127); <b>n/a</b>, the
server does not serve it. Beside each name is that implementation's own verdict, from its own <code>sxd test</code>
or <code>sxd test-client</code> run: a failure blamed on an implementation that is already non-conformant is
a known fault; one blamed on a conformant implementation, or on neither, is a surprise worth reading.</p>`;

function dataAttributes(cell: InteropCell): string {
  return `data-task="${escapeHtml(cell.task)}" data-result="${escapeHtml(cell.result)}" data-blame="${escapeHtml(cell.blame ?? "none")}" data-client="${escapeHtml(cell.client)}" data-server="${escapeHtml(cell.server)}"`;
}

function filtersHtml(doc: InteropDocument): string {
  const fieldset = (name: string, legend: string, values: string[]) =>
    `<fieldset><legend>${legend}</legend>${values
      .map((value, i) => {
        const id = `${name}-${i}`;
        return `<input type="checkbox" id="${id}" name="${name}" value="${escapeHtml(value)}" checked> <label for="${id}">${escapeHtml(value)}</label> `;
      })
      .join("")}</fieldset>`;
  return `<form id="filters" role="search" aria-label="Filter the cells" hidden>
${fieldset("task", "Task", doc.tasks)}
${fieldset("result", "Result", RESULTS)}
${fieldset("blame", "Blame", BLAMES)}
${fieldset(
  "client",
  "Client",
  doc.clients.map((c) => c.name),
)}
${fieldset(
  "server",
  "Server",
  doc.servers.map((s) => s.name),
)}
<p id="shown" aria-live="polite"></p>
</form>
<noscript><p class="meta">The filters need JavaScript; every cell is shown.</p></noscript>`;
}

/** The failed cells no row explains, after the matrix, grouped by pair and reason: where the spec, or sxd's rows, miss something. */
function gapsHtml(doc: InteropDocument): string {
  const gaps = failureGroups(doc.cells).filter((group) => group.blame === "neither");
  const intro = `<h2 id="gaps">Gaps in the spec or in sxd's rows</h2>
<p>Pairs that failed although neither side broke a row that explains where their exchange stopped.</p>`;
  if (gaps.length === 0)
    return `${intro}\n<p class="no-rows" id="no-gaps">None: every failure is explained by a row.</p>`;
  const items = gaps
    .map((group) => {
      const [first] = group.cells as [InteropCell];
      const tasks =
        group.cells.length === 1 ? dataAttributes(first) : dataAttributes(first).replace(/data-task="[^"]*" /, "");
      const links = group.cells
        .map((cell) => `<a href="${escapeHtml(evidenceHref(cell))}#exchange">${escapeHtml(cell.task)}'s exchange</a>`)
        .join(" · ");
      return `<li class="gap filterable" ${tasks}><b>${escapeHtml(group.client)} × ${escapeHtml(group.server)}</b>, ${escapeHtml(tasksText(group.cells))}: ${escapeHtml(group.why)}
${brokenRowsHtml("also broken by the client", first.alsoBroken?.client ?? [])}${brokenRowsHtml("also broken by the server", first.alsoBroken?.server ?? [])}
${links}</li>`;
    })
    .join("\n");
  return `${intro}\n<ul class="gaps">${items}</ul>`;
}

function matrixHtml(doc: InteropDocument, options: InteropHtmlOptions): string {
  const head = doc.servers
    .map(
      (server) =>
        `<th scope="col" class="filterable" data-server="${escapeHtml(server.name)}">${escapeHtml(server.name)}<br>${ownVerdictHtml(server.verdict, options)}${server.problem ? `<div class="problem">${escapeHtml(server.problem)}</div>` : ""}</th>`,
    )
    .join("");
  const rows = doc.clients
    .map((client) => {
      const pairs = doc.servers.map((server) => {
        const cells = doc.tasks.flatMap((task) =>
          doc.cells.filter((c) => c.client === client.name && c.server === server.name && c.task === task),
        );
        const marks = cells.map(markHtml).join("");
        return `<td class="pair filterable${cells.length === 0 ? " nothing-shown" : ""}" data-server="${escapeHtml(server.name)}">${marks}</td>`;
      });
      return `<tr class="filterable" data-client="${escapeHtml(client.name)}"><th scope="row"><span title="${escapeHtml(client.command)}">${escapeHtml(client.name)}</span><br>${ownVerdictHtml(client.verdict, options)}</th>${pairs.join("")}</tr>`;
    })
    .join("\n");
  return `<h2>Every client against every server</h2>
<table id="matrix"><tr><th scope="col">client \\ server</th>${head}</tr>
${rows}
</table>`;
}

function markHtml(cell: InteropCell): string {
  const blame = cell.blame ? ` blame-${escapeHtml(cell.blame)}` : "";
  const title = `${cell.task}: ${resultText(cell)}: ${cell.why}`;
  return `<a class="mark filterable ${cell.result.replace(/ /g, "-")}${blame}" ${dataAttributes(cell)} href="${escapeHtml(evidenceHref(cell))}" title="${escapeHtml(title)}"><span class="task">${escapeHtml(cell.task)}</span>${escapeHtml(markText(cell))}</a>`;
}

/** An implementation's own verdict, the rows it failed, and whence it came; linked to its report. */
export function ownVerdictHtml(verdict: OwnVerdict, options: InteropHtmlOptions = {}): string {
  const failed = verdict.failedRows.length > 0 ? `: fails ${verdict.failedRows.join(", ")}` : "";
  const text = `${verdict.verdict}${failed} (${verdict.source})`;
  const title = verdict.problem ?? (verdict.warnedRows.length > 0 ? `warns on ${verdict.warnedRows.join(", ")}` : "");
  const attributes = `class="own-verdict ${escapeHtml(verdict.verdict.replace(/ /g, "-"))}" title="${escapeHtml(title)}"`;
  if (!verdict.report) return `<span ${attributes}>${escapeHtml(text)}</span>`;
  const href = (options.reportHref ?? ((report: string) => report))(verdict.report);
  const encoded = href
    .split("/")
    .map((segment) => (segment === ".." ? segment : encodeURIComponent(segment)))
    .join("/");
  return `<a ${attributes} href="${escapeHtml(encoded)}">${escapeHtml(text)}</a>`;
}

function scoresHtml(doc: InteropDocument): string {
  const lines = interopScores(doc)
    .map(
      (score) =>
        `<tr data-behaviour="${score.group.slug}"><th scope="row">${escapeHtml(score.group.title)}</th><td>${escapeHtml(score.group.tasks.join(", "))}</td><td class="score">${escapeHtml(scoreText(score))}</td></tr>`,
    )
    .join("\n");
  return `<h2>Interop score per behaviour</h2>
<table id="scores"><caption>Cells that succeeded, of those where the client does the task and the server serves it</caption>
<tr><th scope="col">behaviour</th><th scope="col">tasks</th><th scope="col">succeeded</th></tr>
${lines}
</table>`;
}
