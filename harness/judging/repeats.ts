/**
 * A group of repeats (`sxd test --repeat N`, `sxd test-client --repeat N`): the same target
 * judged N times in a row, each repeat judged as a run (verdicts.ts), the group from the
 * repeats' row verdicts alone.
 *
 * A row's verdict for the group is the worst any repeat gave it: failed in 3 of 20 repeats is
 * failed, a SHOULD case that warned in one is a warning. "Not run" says nothing of the target
 * (a deadline, a breaker, a control the target failed, which its own row reports): it is the
 * group's verdict only where no repeat judged the row, and never makes a row intermittent.
 * Intermittent is a row on which the repeats that judged it disagree about the rule: broken
 * (failed, an expected failure) in some, warned in others or held (passed, fixed, not
 * applicable) in others. Passed beside not applicable is not intermittent: the target took the
 * optional behaviour in some repeats only, and broke nothing.
 *
 *   groupVerdict(["passed", "failed", "passed"])
 *   // { verdict: "failed", counts: { passed: 2, failed: 1 }, intermittent: true, evidence: 1 }
 */
import {
  conclude,
  type Judgement,
  type RepeatCounts,
  type Repeated,
  type RowResult,
  type RowVerdict,
} from "./verdicts.ts";

/** From the worst for a group to the best; "not run" last, since it says nothing of the target. */
const GROUP_PRECEDENCE: RowVerdict[] = [
  "failed",
  "warning",
  "expected failure",
  "fixed",
  "passed",
  "not applicable",
  "not run",
];

/** What a verdict says of the rule on the target; undefined where it says nothing. */
const BEARING: Record<RowVerdict, "broken" | "warned" | "held" | undefined> = {
  failed: "broken",
  "expected failure": "broken",
  warning: "warned",
  passed: "held",
  fixed: "held",
  "not applicable": "held",
  "not run": undefined,
};

export interface GroupVerdict {
  verdict: RowVerdict;
  counts: RepeatCounts;
  intermittent: boolean;
  /** The first repeat (0 first) that gave the verdict: its reason and scenarios are the group's evidence. */
  evidence: number;
}

/** A row's verdict over the group, from the verdicts its repeats gave it, in order. */
export function groupVerdict(verdicts: readonly RowVerdict[]): GroupVerdict {
  if (verdicts.length === 0) throw new Error("a group has at least one repeat");
  const counts: RepeatCounts = {};
  for (const verdict of verdicts) counts[verdict] = (counts[verdict] ?? 0) + 1;
  const verdict = GROUP_PRECEDENCE.find((v) => counts[v] !== undefined) ?? "not run";
  const bearings = new Set(verdicts.map((v) => BEARING[v]).filter((b) => b !== undefined));
  return { verdict, counts, intermittent: bearings.size > 1, evidence: verdicts.indexOf(verdict) };
}

/**
 * The group's judgement from its repeats' (in the order they ran; `asked`: how many the user
 * asked for): each row's verdict, counts and evidence, and the overall verdict over those rows.
 */
export function judgeRepeats(repeats: readonly Judgement[], asked = repeats.length): Judgement {
  const [first] = repeats;
  if (!first) throw new Error("a group has at least one repeat");
  const rows = first.rows.map((row): RowResult => {
    const ofRow = repeats.map((repeat) => repeat.rows.find((r) => r.row.id === row.row.id) ?? row);
    const group = groupVerdict(ofRow.map((r) => r.verdict));
    const shown = ofRow[group.evidence] ?? row;
    return {
      ...shown,
      repeats: group.counts,
      intermittent: group.intermittent,
      evidenceRepeat: group.evidence + 1,
    };
  });
  const executed = repeats.reduce((sum, repeat) => sum + repeat.executed, 0);
  return conclude(rows, executed, first.options, { asked, ran: repeats.length });
}

/**
 * A repeat's judgement as a group keeps it while more repeats run: each row's scenarios only where
 * no earlier repeat gave the row the same verdict, since a group shows a row's evidence from the
 * first repeat that gave its verdict and no later one. What the others recorded (their
 * exchanges) can go, so a group holds at most one repeat's evidence per verdict of a row, not N.
 */
export function keptForEvidence(repeat: Judgement, earlier: readonly Judgement[]): Judgement {
  const seen = (result: RowResult) =>
    earlier.some((before) => before.rows.some((r) => r.row.id === result.row.id && r.verdict === result.verdict));
  return { ...repeat, rows: repeat.rows.map((r) => (seen(r) ? { ...r, scenarios: [] } : r)) };
}

/** What a verdict's count says in a share: "failed in 3", "warned in 2". */
const DONE: Record<RowVerdict, string> = {
  failed: "failed",
  warning: "warned",
  "expected failure": "failed as expected",
  fixed: "passed though listed as failing",
  passed: "passed",
  "not applicable": "was not applicable",
  "not run": "was not run",
};

/** The verdicts a person has to look at: their share is told even where every repeat gave them ("failed in 20 of 20 repeats"). */
const TOLD: RowVerdict[] = ["failed", "warning", "expected failure"];

/**
 * How a row went over a group of more than one repeat, the group's verdict first, and whether it
 * is intermittent: "intermittent, failed in 3 of 20 repeats, passed in 17". Undefined for a
 * single run's row, one without counts, and one every repeat passed (or left not run, or found
 * not applicable) alike.
 */
export function repeatsShare(row: {
  verdict: RowVerdict;
  repeats?: RepeatCounts;
  intermittent?: boolean;
}): string | undefined {
  const counts = row.repeats;
  if (!counts) return undefined;
  const total = Object.values(counts).reduce((sum, n) => sum + (n ?? 0), 0);
  const others = GROUP_PRECEDENCE.filter((v) => v !== row.verdict && counts[v] !== undefined);
  if (total <= 1 || (others.length === 0 && !TOLD.includes(row.verdict))) return undefined;
  return [
    `${row.intermittent ? "intermittent, " : ""}${DONE[row.verdict]} in ${counts[row.verdict] ?? 0} of ${total} repeats`,
    ...others.map((v) => `${DONE[v]} in ${counts[v]}`),
  ].join(", ");
}

/** A group's repeats in words, "20 repeats", or "7 of 20 repeats" where some did not start; undefined for a run of one. */
export function repeatsCount(repeated: Repeated | undefined): string | undefined {
  if (!repeated || repeated.asked <= 1) return undefined;
  return repeated.ran < repeated.asked ? `${repeated.ran} of ${repeated.asked} repeats` : `${repeated.ran} repeats`;
}
