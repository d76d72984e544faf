/**
 * `sxd history` in the terminal, from history.json: per target, each row (and interop cell)
 * whose verdict ever changed or is not a pass, its stretches in a line ("passed in 14 runs from
 * a1b2c3 to 9f8e7d; failed since 2026-12-01 at 77aa01, 3 runs"), when it first failed and what
 * fixed it; the intermittent rows with their share; the limits cases whose cost rose. Pure.
 */
import type { HistoryDocument, TargetHistory } from "./history.ts";
import { brokenness, type RowHistory, type RunRef, type Stretch } from "./stretches.ts";
import type { CaseTrend } from "./trend.ts";

/** A run as a line names it: its label, else its date. */
export function runName(ref: RunRef): string {
  return ref.label ?? ref.date.slice(0, 16).replace("T", " ");
}

/** When and where: "a1b2c3d, 2026-12-01, reports/ (https://ci/job/7)". */
export function runPlace(ref: RunRef): string {
  const where = ref.jobUrl ?? ref.folder;
  return `${runName(ref)}, ${ref.date.slice(0, 10)}${where ? `, ${where}` : ""}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : word.endsWith("h") ? "es" : "s"}`;
}

export function stretchLine(stretch: Stretch, latest: boolean): string {
  const runs = plural(stretch.runs, "run");
  if (latest && brokenness(stretch.verdict) === "broken")
    return `${stretch.verdict} since ${stretch.first.date.slice(0, 10)} at ${runName(stretch.first)}, ${runs}`;
  if (stretch.runs === 1) return `${stretch.verdict} in 1 run (${runName(stretch.first)})`;
  return `${stretch.verdict} in ${runs} from ${runName(stretch.first)} to ${runName(stretch.last)}`;
}

/** The stretches a line shows at most: a row that came and went a thousand times shows its latest. */
const SHOWN_STRETCHES = 6;

function rowLines(history: RowHistory): string[] {
  const all = history.stretches;
  const stretches = all.slice(-SHOWN_STRETCHES).map((s, i, shown) => stretchLine(s, i === shown.length - 1));
  const earlier = all.length - stretches.length;
  if (earlier > 0) stretches.unshift(`${plural(earlier, "earlier stretch")} (--json has them all)`);
  const lines = [`  ${history.id}: ${stretches.join("; ")}`];
  const reason = history.stretches.findLast((s) => brokenness(s.verdict) === "broken")?.note;
  if (history.firstFailed) {
    const fixed = history.fixedBy ? `; fixed by ${runPlace(history.fixedBy)}` : "; not fixed yet";
    lines.push(`      first failed: ${runPlace(history.firstFailed)}${fixed}`);
  }
  if (reason) lines.push(`      ${reason}`);
  return lines;
}

/** The one verdict of a row that never changed. */
function sameThroughout(history: RowHistory): string | undefined {
  return history.stretches.length === 1 && !history.intermittent ? history.stretches[0]?.verdict : undefined;
}

function historiesText(title: string, histories: readonly RowHistory[]): string[] {
  if (histories.length === 0) return [];
  const shown = histories.filter((h) => {
    const same = sameThroughout(h);
    return same === undefined || brokenness(same) === "broken";
  });
  const lines = shown.flatMap(rowLines);
  // The rows that held, or were not judged, in every run: a line each kind.
  const quiet = new Map<string, string[]>();
  for (const h of histories) {
    const same = sameThroughout(h);
    if (same !== undefined && !shown.includes(h)) quiet.set(same, [...(quiet.get(same) ?? []), h.id]);
  }
  for (const [verdict, ids] of quiet)
    lines.push(
      `  ${verdict} in every run: ${ids.length} ${title}${verdict === "passed" ? "" : ` (${ids.join(", ")})`}`,
    );
  const intermittent = histories.filter((h) => h.intermittent);
  for (const h of intermittent)
    lines.push(
      `  INTERMITTENT ${h.id}: broken in ${Math.round(h.failedShare * 100)}% of the runs that judged it (${h.intermittentLabels.join(", ")})`,
    );
  return lines;
}

function trendLine(trend: CaseTrend): string {
  const costs = trend.labels.map(
    (l) => `${l.label} ${round(l.lowerQuartile)} ${trend.unit}${l.risen ? " (ROSE)" : ""}`,
  );
  return `  ${trend.caseId} ${trend.series} at ${trend.size}: ${costs.join(", ")}`;
}

function round(value: number): string {
  return value >= 100 ? value.toFixed(0) : value.toPrecision(3);
}

function targetText(target: TargetHistory): string {
  const lines = [
    `${target.target} (${target.kinds.join(", ")}; ${plural(target.runs, "run")}, ${target.first.date.slice(0, 10)} to ${target.last.date.slice(0, 10)})`,
    ...historiesText("rows", target.rows),
    ...historiesText("cells", target.cells),
    ...target.limits.map(trendLine),
  ];
  return `${lines.join("\n")}\n`;
}

export function historyText(doc: HistoryDocument): string {
  if (doc.runs === 0) return `sxd history: no run in ${doc.store} matches\n`;
  const head = `sxd history: ${plural(doc.runs, "run")} in ${doc.store}\n\n`;
  return head + doc.targets.map(targetText).join("\n");
}
