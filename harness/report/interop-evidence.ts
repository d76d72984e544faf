/**
 * A cell's evidence page (index.html in its evidence folder): the pair and the task, the result
 * and whom it blames, the rows each side broke with the reasons, every request and reply sxd saw
 * between them in order, and what the client printed and how it exited. What came from a target
 * is escaped and bounded; a file the engine did not write is said to be missing.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { RecordedRequest } from "../../lib/recording.ts";
import { shorten } from "../../lib/shorten.ts";
import { escapeXml as escapeHtml } from "../../lib/xml.ts";
import { recordedRequestHtml } from "../evidence/exchange-html.ts";
import type { BrokenRow, InteropCell } from "../evidence/interop-document.ts";
import { INTEROP_CSS, resultText } from "./interop-style.ts";

/** client.json in a cell's evidence folder. */
export interface ClientRun {
  command: string;
  environment?: Record<string, string>;
  exitCode: number | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  durationMs: number;
}

export interface Evidence {
  /** Absent where exchange.json is; a sentence where it could not be read. */
  exchange: RecordedRequest[] | string;
  client: ClientRun | string;
}

/** The most requests a page shows; the rest are counted (they stay in exchange.json). */
const MAX_REQUESTS = 200;
/** The most characters of the client's stdout and of its stderr a page shows. */
const OUTPUT_CHARS = 32_000;
/** An evidence file larger than this is not read into a page. */
const MAX_FILE_BYTES = 32 * 1024 * 1024;

/** Reads a cell's exchange.json and client.json, each replaced by the reason where it is missing or unreadable. */
export function readEvidence(folder: string): Evidence {
  return {
    exchange: readJson(
      join(folder, "exchange.json"),
      (v): v is RecordedRequest[] => Array.isArray(v) && v.every(isRecorded),
    ),
    client: readJson(
      join(folder, "client.json"),
      (v): v is ClientRun => typeof v === "object" && v !== null && "command" in v,
    ),
  };
}

function isRecorded(value: unknown): value is RecordedRequest {
  const r = value as RecordedRequest;
  return (
    typeof r === "object" &&
    r !== null &&
    typeof r.method === "string" &&
    typeof r.target === "string" &&
    typeof r.headers === "object" &&
    r.headers !== null &&
    typeof r.reply === "object" &&
    r.reply !== null &&
    typeof r.reply.headers === "object" &&
    r.reply.headers !== null
  );
}

function readJson<T>(file: string, isShape: (value: unknown) => value is T): T | string {
  const name = file.split(/[\\/]/).pop();
  if (!existsSync(file)) return `no ${name} was written for this cell`;
  if (statSync(file).size > MAX_FILE_BYTES) return `${name} is larger than ${MAX_FILE_BYTES} bytes: open it as it is`;
  try {
    const value: unknown = JSON.parse(readFileSync(file, "utf8"));
    return isShape(value) ? value : `${name} is not in the expected shape`;
  } catch (error) {
    return `${name} cannot be read: ${(error as Error).message}`;
  }
}

/** The page; `matrixHref` leads back to interop.html from the evidence folder. */
export function evidenceHtml(cell: InteropCell, evidence: Evidence, matrixHref: string): string {
  const title = `${cell.client} × ${cell.server}: ${cell.task}`;
  const blame = cell.blame ? `<tr><th scope="row">blame</th><td class="blame">${escapeHtml(cell.blame)}</td></tr>` : "";
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>sxd interop: ${escapeHtml(title)}</title>
<style>${INTEROP_CSS}</style></head><body>
<p><a href="${escapeHtml(matrixHref)}">← the matrix</a></p>
<h1>${escapeHtml(title)}</h1>
<table class="facts">
<tr><th scope="row">client</th><td>${escapeHtml(cell.client)}</td></tr>
<tr><th scope="row">server</th><td>${escapeHtml(cell.server)}</td></tr>
<tr><th scope="row">task</th><td>${escapeHtml(cell.task)}</td></tr>
<tr><th scope="row">result</th><td class="${cssResult(cell)}" id="result">${escapeHtml(resultText(cell))}</td></tr>
${blame}<tr><th scope="row">what happened</th><td>${escapeHtml(cell.why)}</td></tr>
</table>
<h2>${cell.result === "failed" ? "The breaches that explain the failure" : "Rows that explain a failure"}</h2>
${cell.stopped ? `<p id="stopped">The exchange stopped at: ${escapeHtml(cell.stopped)}.</p>\n` : ""}${brokenRowsHtml("the client", cell.rows.client)}
${brokenRowsHtml("the server", cell.rows.server)}
<h2 id="also-broken">Also broken (never blamed: these did not stop the exchange)</h2>
${brokenRowsHtml("the client", cell.alsoBroken?.client ?? [])}
${brokenRowsHtml("the server", cell.alsoBroken?.server ?? [])}
<h2 id="exchange">The exchange, in order</h2>
${exchangeSectionHtml(evidence.exchange)}
<h2 id="client">The client's run</h2>
${clientHtml(evidence.client)}
</body></html>
`;
}

function cssResult(cell: InteropCell): string {
  return cell.result.replace(/ /g, "-");
}

export function brokenRowsHtml(side: string, rows: BrokenRow[]): string {
  if (rows.length === 0) return `<p class="no-rows">${side}: no row broken</p>`;
  const lines = rows
    .map(
      (row) =>
        `<tr><th scope="row">${escapeHtml(row.id)}</th><td>${escapeHtml(row.level.toUpperCase())}</td><td class="reason">${escapeHtml(row.reason)}</td></tr>`,
    )
    .join("\n");
  return `<table class="rows"><caption>${side} broke</caption>
<tr><th scope="col">row</th><th scope="col">level</th><th scope="col">reason</th></tr>
${lines}
</table>`;
}

function exchangeSectionHtml(exchange: Evidence["exchange"]): string {
  if (typeof exchange === "string") return `<p class="missing">${escapeHtml(exchange)}</p>`;
  if (exchange.length === 0) return `<p class="missing">sxd saw no request between the two</p>`;
  const shown = exchange.slice(0, MAX_REQUESTS);
  const more =
    exchange.length > shown.length
      ? `<p class="missing">and ${exchange.length - shown.length} more requests, in exchange.json</p>`
      : "";
  return `<p>${exchange.length} request${exchange.length === 1 ? "" : "s"}</p>
<ol class="exchanges">${shown.map((request) => `<li>${recordedRequestHtml(request)}</li>`).join("\n")}</ol>${more}`;
}

function clientHtml(client: Evidence["client"]): string {
  if (typeof client === "string") return `<p class="missing">${escapeHtml(client)}</p>`;
  const exit = client.timedOut ? "timed out (stopped by sxd)" : `exit code ${client.exitCode ?? "none"}`;
  const environment = Object.entries(client.environment ?? {})
    .map(([name, value]) => `<tr><th scope="row">${escapeHtml(name)}</th><td>${escapeHtml(value)}</td></tr>`)
    .join("\n");
  return `<table class="facts">
<tr><th scope="row">command</th><td><code>${escapeHtml(client.command)}</code></td></tr>
<tr><th scope="row">exit</th><td id="exit">${escapeHtml(exit)}</td></tr>
<tr><th scope="row">took</th><td>${escapeHtml(String(Math.round(client.durationMs)))} ms</td></tr>
</table>
${environment ? `<details><summary>its environment</summary><table class="facts">${environment}</table></details>` : ""}
<h3>stdout</h3>
${outputHtml(client.stdout)}
<h3>stderr</h3>
${outputHtml(client.stderr)}`;
}

function outputHtml(text: string): string {
  if (!text) return `<p class="missing">(nothing)</p>`;
  return `<pre class="output">${escapeHtml(shorten(text, OUTPUT_CHARS, { sayLength: true }))}</pre>`;
}
