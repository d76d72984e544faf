/**
 * A fault run's failure summary as a stable text, kept beside the tests as an expected file
 * (hurl's `tests_failed/*.err`): every row that did not pass, each of its scenarios that did
 * not pass, and the first lines of the message (what was expected, what came instead). What
 * differs from run to run (ports, dates, nonces, tokens, resource names) is replaced by a
 * placeholder, so the file changes only when a message's wording or a failing row does.
 *
 *   checkFaultsOf("SNAP") → test/expected-failures/snap-update-200.txt:
 *   SNAP-2 failed
 *     features/snapshots/updating.feature: An update answers 204 …
 *       expected status 204
 *       but got status 200
 */
import type { SuiteRun } from "../../harness/run/run.ts";

/** Where a failure message's own words end and the transcript of the exchange begins. */
const TRANSCRIPT_OPENING = /^in the exchange/;
/** At most this many lines of a message: the expectation and what was got instead. */
const MESSAGE_LINES = 2;

export function failureSummary(run: SuiteRun): string {
  const lines: string[] = [];
  for (const result of run.judgement.rows) {
    if (result.scenarios.length === 0 || result.verdict === "passed") continue;
    lines.push(`${result.row.id} ${result.verdict}`);
    for (const scenario of result.scenarios) {
      if (scenario.status === "passed") continue;
      const file = scenario.location.replace(/:\d+$/, "");
      lines.push(`  ${file}: ${scenario.name} [${scenario.status}]`);
      for (const line of messageHead(scenario.message ?? "")) lines.push(`    ${line}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

function messageHead(message: string): string[] {
  const head: string[] = [];
  for (const line of message.split("\n")) {
    if (TRANSCRIPT_OPENING.test(line) || head.length === MESSAGE_LINES) break;
    if (line.trim() !== "") head.push(stable(line.trimEnd()));
  }
  return head;
}

const WEEKDAY_DATE = /\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT\b/g;
const ISO_TIMESTAMP = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z\b/g;
const PORT = /(\bhttps?:\/\/[^/\s:]+):\d+/g;
/**
 * Nonces, tokens, digests, generated resource and user names: long runs with digits and letters,
 * and any run of 32 or more (a random base64 nonce may hold no digit: 1 in a few hundred do).
 */
const GENERATED = /(?<![\w.-])(?:(?=[\w.~-]*\d)(?=[\w.~-]*[A-Za-z])[\w.~-]{16,}|[\w.~-]{32,})(?![\w.-])/g;
const DURATION = /\b\d+(?:\.\d+)? ?(ms|s)\b/g;
/** The user names the export steps make up (`sxd-` and eight base-36 characters). */
const SCRATCH_USER = /\bsxd-[a-z0-9]{1,8}\b(?!-)/g;
/** The random tag that tells the snapshot steps' versions apart (`Author 2 1f0c…`, `(1f0c…)`). */
const VERSION_TAG = /(Author \d+ |\()[0-9a-f]{8}\b/g;

/**
 * One message line with what varies between runs replaced by placeholders. The year-9999 date
 * stays: it is a fault's own constant, not the clock's.
 */
export function stable(line: string): string {
  return line
    .replace(WEEKDAY_DATE, (date) => (date.includes(" 9999 ") ? date : "<http-date>"))
    .replace(ISO_TIMESTAMP, "<timestamp>")
    .replace(PORT, "$1:<port>")
    .replace(SCRATCH_USER, "sxd-<generated>")
    .replace(VERSION_TAG, "$1<tag>")
    .replace(GENERATED, "<generated>")
    .replace(DURATION, "<n> $1");
}
