/**
 * The conformance report: conformance.json (one entry per row: level, verdict, scenarios,
 * failure messages, recorded exchanges), conformance.html (the same as one self-contained
 * page), an optional HAR file of the run's traffic, and the merged matrix of several runs.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { escapeXml as escapeHtml } from "../../lib/xml.ts";
import { curlCommand, type Exchange } from "../exchange.ts";
import { EXCHANGES_MEDIA_TYPE } from "../outcomes.ts";
import type { TargetDescription } from "../target.ts";
import type { Judgement, Overall, RowVerdict } from "../verdicts.ts";
import { junitXml } from "./junit.ts";

export interface ReportInput {
  reportDir: string;
  target: TargetDescription;
  judgement: Judgement;
  strict: boolean;
  harFile: string | undefined;
  /** When the run started, ISO 8601 (junit.xml's timestamp). */
  startedAt?: string;
  /** What a reader must know about how the run went: "interrupted (SIGINT)", "TLS certificates were not checked". */
  warnings?: string[];
  /** The signal that stopped the run early, if one did: the report is incomplete. */
  interrupted?: string;
}

export interface ConformanceDocument {
  suite: { name: string; version: string };
  target: { baseUrl: string; contactsUrl?: string; messagingUrl?: string };
  date: string;
  strict: boolean;
  overall: Overall;
  /** Set when a signal stopped the run: the scenarios not started are not run. */
  interrupted?: string;
  warnings?: string[];
  rows: Array<{
    id: string;
    level: string;
    rule: string;
    verdict: RowVerdict;
    reason?: string;
    scenarios: Array<{ name: string; location: string; status: string; message?: string; exchanges: Exchange[] }>;
  }>;
}

export function suiteVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
  return pkg.version;
}

export function conformanceDocument(input: ReportInput): ConformanceDocument {
  const { target, judgement } = input;
  return {
    suite: { name: "sxd", version: suiteVersion() },
    target: { baseUrl: target.baseUrl, contactsUrl: target.contactsUrl, messagingUrl: target.messagingUrl },
    date: new Date().toISOString(),
    strict: input.strict,
    overall: judgement.overall,
    ...(input.interrupted ? { interrupted: input.interrupted } : {}),
    ...(input.warnings?.length ? { warnings: input.warnings } : {}),
    rows: judgement.rows.map((r) => ({
      id: r.row.id,
      level: r.row.level,
      rule: r.row.rule,
      verdict: r.verdict,
      reason: r.reason,
      scenarios: r.scenarios.map((s) => ({
        name: s.name,
        location: s.location,
        status: s.status,
        message: s.message,
        exchanges: s.attachments
          .filter((a) => a.mediaType === EXCHANGES_MEDIA_TYPE)
          .flatMap((a) => JSON.parse(a.body) as Exchange[]),
      })),
    })),
  };
}

export function writeReports(input: ReportInput): ConformanceDocument {
  const document = conformanceDocument(input);
  writeFileSync(resolve(input.reportDir, "conformance.json"), `${JSON.stringify(document, null, 2)}\n`);
  writeFileSync(resolve(input.reportDir, "conformance.html"), conformanceHtml(document));
  writeFileSync(
    resolve(input.reportDir, "junit.xml"),
    junitXml({
      judgement: input.judgement,
      baseUrl: input.target.baseUrl,
      timestamp: input.startedAt ?? document.date,
    }),
  );
  if (input.harFile) writeFileSync(resolve(input.harFile), `${JSON.stringify(harDocument(document), null, 2)}\n`);
  return document;
}

/** Failures first, then warnings, then what did not run, then the rest. */
const VERDICT_ORDER: RowVerdict[] = [
  "failed",
  "warning",
  "fixed",
  "expected failure",
  "not run",
  "not applicable",
  "passed",
];

export function conformanceHtml(doc: ConformanceDocument): string {
  const run = doc.rows.filter((r) => r.scenarios.length > 0);
  const sorted = [...run].sort(
    (a, b) =>
      VERDICT_ORDER.indexOf(a.verdict) - VERDICT_ORDER.indexOf(b.verdict) ||
      a.id.localeCompare(b.id, "en", { numeric: true }),
  );
  const levels = ["must", "should", "may"];
  const countRows = levels
    .map((level) => {
      const ofLevel = run.filter((r) => r.level === level);
      const cells = VERDICT_ORDER.map((v) => `<td>${ofLevel.filter((r) => r.verdict === v).length}</td>`).join("");
      return `<tr><th>${level.toUpperCase()}</th>${cells}</tr>`;
    })
    .join("\n");
  const rowsHtml = sorted.map(rowHtml).join("\n");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>sxd conformance: ${escapeHtml(doc.target.baseUrl)}</title>
<style>
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 1100px; padding: 0 1rem; color: #1d1d1f; }
h1 { font-size: 1.5rem; margin-bottom: .2rem; }
.meta { color: #555; margin-bottom: 1rem; }
.overall { font-size: 1.3rem; font-weight: 600; padding: .6rem 1rem; border-radius: 6px; display: inline-block; }
.overall.conformant { background: #d8f5dd; } .overall.conformant-with-warnings { background: #fff2c4; }
.overall.not-conformant { background: #ffd9d6; } .overall.incomplete { background: #e4e4ea; }
table.counts { border-collapse: collapse; margin: 1rem 0 1.5rem; }
table.counts td, table.counts th { border: 1px solid #ccc; padding: .25rem .7rem; text-align: center; }
details.row { border: 1px solid #ddd; border-left-width: 6px; border-radius: 4px; margin: .35rem 0; padding: .3rem .7rem; }
details.row > summary { cursor: pointer; }
.failed { border-left-color: #d93025 !important; } .warning { border-left-color: #f2a600 !important; }
.passed { border-left-color: #1e8e3e !important; } .not-run, .not-applicable { border-left-color: #999 !important; }
.expected-failure, .fixed { border-left-color: #7b61ff !important; }
.verdict { font-weight: 600; text-transform: uppercase; font-size: .8rem; margin-right: .5rem; }
.level { color: #555; font-size: .8rem; margin-right: .5rem; }
.reason, pre { white-space: pre-wrap; word-break: break-word; }
pre { background: #f6f8fa; padding: .5rem; border-radius: 4px; font-size: 12.5px; }
.scenario { margin: .5rem 0 .5rem 1rem; }
</style>
</head>
<body>
<h1>sxd conformance report</h1>
<div class="meta">Target ${escapeHtml(doc.target.baseUrl)}${doc.target.contactsUrl ? ` · contacts ${escapeHtml(doc.target.contactsUrl)}` : ""}${doc.target.messagingUrl ? ` · messaging ${escapeHtml(doc.target.messagingUrl)}` : ""}<br>
${escapeHtml(doc.date)} · sxd ${escapeHtml(doc.suite.version)}${doc.strict ? " · strict" : ""}</div>
<div class="overall ${cssClass(doc.overall)}" id="overall">${escapeHtml(doc.overall)}${doc.interrupted ? ` (interrupted by ${escapeHtml(doc.interrupted)})` : ""}</div>
${(doc.warnings ?? []).map((w) => `<p class="warning-line" role="alert">warning: ${escapeHtml(w)}</p>`).join("\n")}
<table class="counts" id="counts">
<tr><th></th>${VERDICT_ORDER.map((v) => `<th>${v}</th>`).join("")}</tr>
${countRows}
</table>
${rowsHtml}
</body>
</html>
`;
}

function rowHtml(row: ConformanceDocument["rows"][number]): string {
  const open = row.verdict === "failed" ? " open" : "";
  // The row shows what was expected and what came; the exchange is in the scenario below.
  const reason = row.reason ? `<div class="reason">${escapeHtml(row.reason.split("\nin the exchange:")[0])}</div>` : "";
  const scenarios = row.scenarios
    .map((s) => {
      const exchanges = s.exchanges
        .map((e) => `<pre>${escapeHtml(transcript(e))}</pre><pre class="curl">${escapeHtml(curlCommand(e))}</pre>`)
        .join("");
      const message = s.message ? `<pre class="message">${escapeHtml(s.message)}</pre>` : "";
      return `<details class="scenario"><summary>${escapeHtml(s.status)}: ${escapeHtml(s.name)} <small>${escapeHtml(s.location)}</small></summary>${message}${exchanges}</details>`;
    })
    .join("");
  return `<details class="row ${cssClass(row.verdict)}" data-row="${row.id}" data-verdict="${row.verdict}"${open}>
<summary><span class="verdict">${escapeHtml(row.verdict)}</span><span class="level">${row.level.toUpperCase()}</span><b>${row.id}</b> ${escapeHtml(row.rule)}</summary>
${reason}${scenarios}</details>`;
}

function transcript(e: Exchange): string {
  const lines = [`${e.method} ${e.url}`, ...Object.entries(e.requestHeaders).map(([n, v]) => `${n}: ${v}`)];
  if (e.requestBody) lines.push("", excerpt(e.requestBody));
  lines.push("");
  if (e.response) {
    lines.push(`HTTP ${e.response.status}`);
    for (const [n, values] of Object.entries(e.response.headers)) for (const v of values) lines.push(`${n}: ${v}`);
    if (e.response.body) lines.push("", excerpt(e.response.body));
  } else lines.push(`(no reply: ${e.error ?? "unknown"})`);
  return lines.join("\n");
}

function excerpt(text: string): string {
  return text.length > 2000 ? `${text.slice(0, 2000)}… (${text.length} characters)` : text;
}

function cssClass(text: string): string {
  return text.replace(/ /g, "-");
}

/** HAR 1.2 of every recorded exchange, in the order they were sent. */
export function harDocument(doc: ConformanceDocument) {
  const exchanges = doc.rows
    .flatMap((r) => r.scenarios.flatMap((s) => s.exchanges))
    .filter((e, i, all) => all.indexOf(e) === i)
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  const pairs = (headers: Record<string, string | string[]>) =>
    Object.entries(headers).flatMap(([name, v]) => (Array.isArray(v) ? v : [v]).map((value) => ({ name, value })));
  return {
    log: {
      version: "1.2",
      creator: { name: "sxd", version: doc.suite.version },
      entries: exchanges.map((e) => ({
        startedDateTime: e.startedAt,
        time: e.durationMs,
        request: {
          method: e.method,
          url: e.url,
          httpVersion: "HTTP/1.1",
          headers: pairs(e.requestHeaders),
          queryString: [],
          cookies: [],
          headersSize: -1,
          bodySize: e.requestBody === undefined ? 0 : Buffer.byteLength(e.requestBody),
          ...(e.requestBody === undefined
            ? {}
            : { postData: { mimeType: e.requestHeaders["content-type"] ?? "", text: e.requestBody } }),
        },
        response: {
          status: e.response?.status ?? 0,
          statusText: e.response ? "" : (e.error ?? ""),
          httpVersion: "HTTP/1.1",
          headers: pairs(e.response?.headers ?? {}),
          cookies: [],
          content: {
            size: Buffer.byteLength(e.response?.body ?? ""),
            mimeType: e.response?.headers["content-type"]?.[0] ?? "",
            text: e.response?.body ?? "",
          },
          redirectURL: e.response?.headers.location?.[0] ?? "",
          headersSize: -1,
          bodySize: Buffer.byteLength(e.response?.body ?? ""),
        },
        cache: {},
        timings: { send: 0, wait: e.durationMs, receive: 0 },
      })),
    },
  };
}

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

export function readConformance(path: string): ConformanceDocument {
  const doc = JSON.parse(readFileSync(path, "utf8")) as ConformanceDocument;
  if (!doc || !Array.isArray(doc.rows) || !doc.target) throw new Error(`${path} is not a conformance.json of sxd`);
  return doc;
}
