/**
 * A row's history from its runs, pure: the runs collapsed into stretches of one verdict, the
 * first run of its latest failure and the run that fixed it, and whether it is intermittent.
 * Computed from stored runs, never written by a run (wpt.fyi's way: history is read from
 * documents). An interop cell's history is read the same way, its result as its verdict.
 *
 * Intermittent: the row was broken in some runs and held in others of one label (the same
 * implementation), or within one run's `--repeat` group. A row that changed once between two
 * labels and stayed is a change, never intermittent. Runs without a label are compared with
 * no other run: only their own repeats can show them intermittent.
 */

/** A run as a history names it: which, of what, when, and where its evidence lies. */
export interface RunRef {
  run: string;
  label: string | null;
  date: string;
  folder: string | null;
  jobUrl: string | null;
}

/** One run's verdict on one row (or result of one cell), oldest first in a history's input. */
export interface Observation {
  at: RunRef;
  verdict: string;
  /** Why, as the run said it: a row's reason, a cell's blame and why. */
  note: string | null;
  /** Its `--repeat` group disagreed on the row. */
  intermittent: boolean;
  /** A `--repeat` group's count of each verdict; null for a run of one. */
  repeats: Record<string, number> | null;
}

export interface Stretch {
  verdict: string;
  runs: number;
  first: RunRef;
  last: RunRef;
  /** The note of the stretch's first run (why it failed, where it did). */
  note: string | null;
}

export interface RowHistory {
  id: string;
  stretches: Stretch[];
  /** The first run of the latest stretch of failure; null where the row never failed. */
  firstFailed: RunRef | null;
  /** The first run after that stretch in which the row held again; null where it never failed, or fails still. */
  fixedBy: RunRef | null;
  intermittent: boolean;
  /** The labels within which the verdicts differed (a repeat group's label too). */
  intermittentLabels: string[];
  /** Of the runs (each repeat counted) that judged the row, the share that broke it, 0 to 1. */
  failedShare: number;
}

type Broken = "broken" | "held" | "neither";

/** Whether a verdict breaks the row's rule, holds it, or says nothing either way (not run). */
export function brokenness(verdict: string): Broken {
  if (verdict === "failed" || verdict === "warning" || verdict === "expected failure") return "broken";
  if (verdict === "passed" || verdict === "fixed" || verdict === "not applicable" || verdict === "succeeded")
    return "held";
  return "neither";
}

/** Consecutive runs of one verdict as one stretch, in the runs' order. */
export function stretchesOf(observations: readonly Observation[]): Stretch[] {
  const stretches: Stretch[] = [];
  for (const o of observations) {
    const last = stretches.at(-1);
    if (last && last.verdict === o.verdict) {
      last.runs++;
      last.last = o.at;
    } else stretches.push({ verdict: o.verdict, runs: 1, first: o.at, last: o.at, note: o.note });
  }
  return stretches;
}

/** The first run of the latest failing stretch, and the first holding run after it. */
export function failureAndFix(observations: readonly Observation[]): {
  firstFailed: RunRef | null;
  fixedBy: RunRef | null;
} {
  let firstFailed: RunRef | null = null;
  let fixedBy: RunRef | null = null;
  let failing = false;
  for (const o of observations) {
    const state = brokenness(o.verdict);
    if (state === "broken" && !failing) {
      failing = true;
      firstFailed = o.at;
      fixedBy = null;
    } else if (state === "held" && failing) {
      failing = false;
      fixedBy = o.at;
    }
  }
  return { firstFailed, fixedBy };
}

const BROKE = 1;
const HELD = 2;

/** The labels within which the row both broke and held: in one repeat group, or across runs of one label. */
export function intermittentLabels(observations: readonly Observation[]): string[] {
  // Each label's states seen as bits: it is intermittent once both are set.
  const seen = new Map<string, number>();
  const labels = new Set<string>();
  for (const o of observations) {
    if (o.intermittent || (o.repeats !== null && repeatsDisagree(o.repeats)))
      labels.add(o.at.label ?? `run ${o.at.run.slice(0, 12)}`);
    const label = o.at.label;
    if (label === null) continue;
    const state = brokenness(o.verdict);
    if (state === "neither") continue;
    const bits = (seen.get(label) ?? 0) | (state === "broken" ? BROKE : HELD);
    seen.set(label, bits);
    if (bits === (BROKE | HELD)) labels.add(label);
  }
  return [...labels];
}

function repeatsDisagree(repeats: Record<string, number>): boolean {
  let bits = 0;
  for (const [verdict, n] of Object.entries(repeats)) {
    const state = brokenness(verdict);
    if (n > 0 && state !== "neither") bits |= state === "broken" ? BROKE : HELD;
  }
  return bits === (BROKE | HELD);
}

/** Of the runs that judged the row (a repeat group's each repeat), the share that broke it. */
export function failedShare(observations: readonly Observation[]): number {
  let broken = 0;
  let judged = 0;
  const count = (verdict: string, n: number) => {
    const state = brokenness(verdict);
    if (state === "neither") return;
    judged += n;
    if (state === "broken") broken += n;
  };
  for (const o of observations) {
    if (o.repeats === null) count(o.verdict, 1);
    else for (const [verdict, n] of Object.entries(o.repeats)) count(verdict, n);
  }
  return judged === 0 ? 0 : Math.round((broken / judged) * 1000) / 1000;
}

export function rowHistory(id: string, observations: readonly Observation[]): RowHistory {
  const labels = intermittentLabels(observations);
  return {
    id,
    stretches: stretchesOf(observations),
    ...failureAndFix(observations),
    intermittent: labels.length > 0,
    intermittentLabels: labels,
    failedShare: failedShare(observations),
  };
}
