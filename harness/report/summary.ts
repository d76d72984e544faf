/**
 * The console summary after a run: every failure, warning and expected failure with its
 * message and the exchange it came in, printed once and numbered; then the counts by level,
 * each row that did not pass with one line per failed or warned case (pointing at its
 * number), and the verdict. After an interop run (`summaryTable`): the matrix, clients as rows
 * and servers as columns, a mark per task.
 */

import type { Exchange } from "../evidence/exchange.ts";
import type { InteropDocument } from "../evidence/interop-document.ts";
import { rowDocsUrl } from "../evidence/presentation.ts";
import { caseNames, EXCHANGES_MEDIA_TYPE, type ScenarioOutcome } from "../judging/outcomes.ts";
import { repeatsCount, repeatsShare } from "../judging/repeats.ts";
import { caseVerdict, type Judgement, type RowResult, type RowVerdict } from "../judging/verdicts.ts";
import { cellCounts, pairMarks } from "./interop-cells.ts";

/** The cases a person has to look at, in the summary's words. */
const LISTED: RowVerdict[] = ["failed", "warning", "expected failure"];

/**
 * Verdicts whose rows list no case: the rows that share one and its reason share a line (a
 * description that leaves a key out has every row that needs it not run for the same reason).
 */
const GROUPED: RowVerdict[] = ["not run", "not applicable"];

const LEVELS = ["must", "should", "may"] as const;

/** `MUST` where the rows share a level, else how many of each: `10 MUST, 5 SHOULD`. */
function levelsOf(rows: RowResult[]): string {
  const counts = LEVELS.map((level) => [level, rows.filter((r) => r.row.level === level).length] as const);
  const present = counts.filter(([, n]) => n > 0);
  if (present.length === 1) return present[0][0].toUpperCase();
  return present.map(([level, n]) => `${n} ${level.toUpperCase()}`).join(", ");
}

/** How often the target refused with 429 (or 503 and Retry-After), and what sxd did about it. */
export interface RateSummary {
  refused: number;
  /** Wall-clock time the run spent waiting after refusals, and how much it may. */
  waitedMs: number;
  boundMs: number;
  /** Requests per second sxd settled on; absent when none got through. */
  suggestedRate?: number;
}

export function summaryText(
  judgement: Judgement,
  baseUrl: string,
  reportDir: string,
  extras: { rateLimited?: RateSummary; docsUrl?: string } = {},
): string {
  const { rateLimited, docsUrl } = extras;
  const selected = judgement.rows.filter((r) => r.scenarios.length > 0);
  const details: string[] = [];
  const rowLines: string[] = [];
  const grouped = new Set<RowResult>();
  const repeats = judgement.repeated && judgement.repeated.ran > 1 ? judgement.repeated : undefined;
  for (const r of selected.filter((x) => x.verdict !== "passed")) {
    if (grouped.has(r)) continue;
    const group = GROUPED.includes(r.verdict)
      ? selected.filter(
          (x) => x.verdict === r.verdict && firstLine(x.reason) === firstLine(r.reason) && share(x) === share(r),
        )
      : [r];
    for (const member of group) grouped.add(member);
    rowLines.push(
      `  ${r.verdict.toUpperCase()}: ${group.map((x) => x.row.id).join(", ")} (${levelsOf(group)}) ${share(r)}${firstLine(r.reason)}`,
    );
    if (docsUrl) rowLines.push(...group.map((x) => `    the rule: ${rowDocsUrl(docsUrl, x.row.id)}`));
    const level = r.row.level.toUpperCase();
    const names = caseNames(r.scenarios);
    r.scenarios.forEach((scenario, i) => {
      const verdict = caseVerdict(scenario, r.row.id, judgement.options);
      if (!LISTED.includes(verdict)) return;
      const number = details.length + 1;
      rowLines.push(`    ${number}) ${verdict}: ${names[i]}: ${firstLine(scenario.message)}`);
      const inRepeat = repeats ? `, in repeat ${r.evidenceRepeat} of ${repeats.ran}` : "";
      details.push(detail(number, `${verdict.toUpperCase()} ${r.row.id} (${level})${inRepeat}`, names[i], scenario));
    });
  }
  const lines = details.length > 0 ? ["", "Failures and warnings:", "", ...details] : [];
  const inRepeats = repeatsCount(judgement.repeated);
  lines.push("", `sxd: ${selected.length} rows checked against ${baseUrl}${inRepeats ? `, ${inRepeats}` : ""}`);
  for (const level of LEVELS) {
    const ofLevel = selected.filter((r) => r.row.level === level);
    if (ofLevel.length === 0) continue;
    const byVerdict = new Map<string, number>();
    for (const r of ofLevel) byVerdict.set(r.verdict, (byVerdict.get(r.verdict) ?? 0) + 1);
    const parts = [...byVerdict].map(([verdict, n]) => `${n} ${verdict}`).join(", ");
    lines.push(`  ${level.toUpperCase().padEnd(7)} ${parts}`);
  }
  lines.push(...rowLines);
  if (repeats) {
    const intermittent = selected.filter((r) => r.intermittent).map((r) => r.row.id);
    lines.push(`  intermittent (verdicts that differ between repeats): ${intermittent.join(", ") || "none"}`);
  }
  if (rateLimited) lines.push(rateLine(rateLimited));
  lines.push(`verdict: ${judgement.overall} (reports in ${reportDir}/)`, ...gate(judgement), "");
  return lines.join("\n");
}

/** The matrix of an interop run on the console: clients as rows, servers as columns, a mark per task. */
export function summaryTable(doc: InteropDocument): string {
  const first = Math.max(6, ...doc.clients.map((client) => client.name.length));
  const widths = doc.servers.map((server) => Math.max(server.name.length, doc.tasks.length));
  const line = (cells: string[]) =>
    cells.map((text, i) => text.padEnd(i === 0 ? first : (widths[i - 1] ?? 0))).join("  ");
  const rows = doc.clients.map((client) =>
    line([client.name, ...doc.servers.map((server) => pairMarks(doc.cells, doc.tasks, client.name, server.name))]),
  );
  return [
    line(["", ...doc.servers.map((server) => server.name)]),
    ...rows,
    "",
    `tasks in each cell: ${doc.tasks.join(", ")}`,
    "+ succeeded; failed, blamed on: C client, S server, B both, N neither (a gap in the spec or in sxd's rows), x nobody (a limit of the run); u unsupported; . not applicable",
    cellCounts(doc.cells),
    "",
  ].join("\n");
}

function detail(number: number, heading: string, name: string, scenario: ScenarioOutcome): string {
  const body = [scenario.location, ...(scenario.message ?? "").split("\n")].map((line) => `   ${line}`);
  return [`${number}) ${heading}: ${name}`, ...body, ""].join("\n");
}

/** Why an incomplete run exits as it does. */
function gate(judgement: Judgement): string[] {
  if (judgement.overall !== "incomplete") return [];
  if (judgement.executed === 0)
    return ["exit 3: no scenario ran, so nothing was checked (--allow-incomplete does not accept that)"];
  if (judgement.exitCode === 0) return ["exit 0: incomplete, accepted by --allow-incomplete"];
  const { repeated } = judgement;
  return repeated && repeated.ran < repeated.asked
    ? [`exit 3: ${repeated.ran} of the ${repeated.asked} repeats asked for ran (--allow-incomplete accepts that)`]
    : ["exit 3: a MUST or MAY row above could not be run (--allow-incomplete accepts that)"];
}

/** "intermittent, failed in 3 of 20 repeats, passed in 17: " for a row of a group, "" for a single run's. */
function share(row: RowResult): string {
  const text = repeatsShare(row);
  return text === undefined ? "" : `${text}: `;
}

function rateLine({ refused, waitedMs, boundMs, suggestedRate }: RateSummary): string {
  const requests = refused === 1 ? "1 request was" : `${refused} requests were`;
  const pace =
    suggestedRate === undefined
      ? "no request got through"
      : `sxd settled on ${suggestedRate} requests a second (--rate ${suggestedRate} may stay under the limit)`;
  return (
    `rate-limited: ${requests} refused (429, or 503 with Retry-After) and sent again; ${pace}; ` +
    `the run spent ${(waitedMs / 1000).toFixed(1)} s waiting after refusals, of the ${Math.round(boundMs / 1000)} s ` +
    "it may (--refusal-wait)"
  );
}

function firstLine(text: string | undefined): string {
  return (text ?? "").split("\n")[0] ?? "";
}

/**
 * One line when every reply of the run was the same wrong thing (all 404, all HTML): the
 * target is most likely not the server the suite was meant for, and every failure says so
 * again. Undefined otherwise.
 */
export function uniformReplyLine(judgement: Judgement): string | undefined {
  const seen = new Set<ScenarioOutcome>();
  const exchanges = judgement.rows
    .flatMap((r) => r.scenarios)
    .filter((s) => !seen.has(s) && seen.add(s))
    .flatMap((s) => s.attachments.filter((a) => a.mediaType === EXCHANGES_MEDIA_TYPE))
    .flatMap((a) => JSON.parse(a.body) as Exchange[])
    .filter((e) => e.response !== undefined);
  if (exchanges.length < 3) return undefined;
  const replies = exchanges.flatMap((e) => e.response ?? []);
  const statuses = new Set(replies.map((r) => r.status));
  // Only 401s to requests without credentials is what a run that states no user gets, not a wrong server.
  const unasked = replies[0]?.status === 401 && exchanges.every((e) => e.requestHeaders.authorization === undefined);
  const status =
    statuses.size === 1 && replies[0] && replies[0].status >= 400 && !unasked ? `${replies[0].status}` : undefined;
  const html = replies.every((r) => /^text\/html\b/i.test(r.headers["content-type"]?.[0] ?? ""));
  if (!status && !html) return undefined;
  const what = [status && `status ${status}`, html && "HTML"].filter(Boolean).join(", ");
  return `every reply of this run (${replies.length}) was ${what}: is this the server the description means?`;
}
