/**
 * The engine of `sxd limits`: for each LIM case, its sizes smallest first, each prepared, then
 * the repeats (turn about across sizes where the case allows), the memory after each size
 * where the server's process is known, the growth of each series, and the plain GET that
 * shows the server still answers. It knows no case: they come from steps/<behaviour>/limits.ts.
 *
 *   const result = await measureLimits(cases, { repeats: 7, deadlineAt, sizesOf, ... });
 */
import type { Exchange } from "../evidence/exchange.ts";
import { observedBySaying } from "../evidence/limits-document.ts";
import { RequestNotSent } from "../judging/step-errors.ts";
import { type LimitCase, LimitFinding, LimitReached, type SeriesSpec, UnexpectedAnswer } from "./case.ts";
import { type Repeat, underOneCondition } from "./conditions.ts";
import { type Fit, type Growth, growthOf, type Point, pointOf } from "./growth.ts";
import { largestFitting, msPerRequest, type Pace, repeatRequests } from "./plan.ts";

export interface SeriesResult extends SeriesSpec {
  points: Point[];
  fit?: Fit;
}

export interface CaseResult {
  id: string;
  measures: string;
  size: { name: string; unit: string };
  /** The sizes asked for (the defaults, or as --sizes lowered them). */
  sizes: number[];
  /** Not run: why (the key to state); absent where it ran. */
  notRun?: string;
  series: SeriesResult[];
  /** Resident memory after each size, in MB; absent where not observed. */
  memory?: SeriesResult;
  /** The size a refusal stated a limit at, and what it said. */
  limit?: { size: number; said: string };
  /** Sizes not measured, and why (the deadline, an unexpected answer). */
  lowered: Array<{ size: number; reason: string }>;
  /** What the case saw at each size beside its costs (LimitCase.observe). */
  observed: Array<{ size: number; said: string }>;
  finding?: { message: string; exchange?: Exchange };
  /** What the case could not check or delete (LimitCase.notes). */
  notes?: string[];
  /** The class of the case: its worst series' beyond what the case expects. */
  growth?: Growth;
}

export interface LimitsPlan {
  measures: (id: string) => string;
  sizesOf: (limitCase: LimitCase) => number[];
  repeats: number;
  /** Wall-clock time (ms) after which no request is sent. */
  deadlineAt: number;
  /** The server's resident memory in bytes, where its process is known. */
  memory?: () => number | undefined;
  /** The plain GET after a case: the exchange where the server did not answer it normally. */
  plainGetFails: () => Promise<Exchange | undefined>;
  progress: (line: string) => void;
  now?: () => number;
}

/** Milliseconds a request takes, as the run has seen it so far; a guess before the first. */
const FIRST_GUESS_MS = 5;

export async function measureLimits(cases: readonly LimitCase[], plan: LimitsPlan): Promise<CaseResult[]> {
  const now = plan.now ?? Date.now;
  // The fastest a request has gone in any case so far: the first guess of the next case's own pace.
  const fastest = { ms: FIRST_GUESS_MS };
  const results: CaseResult[] = [];
  let down: string | undefined;
  for (const [index, limitCase] of cases.entries()) {
    const result: CaseResult = {
      id: limitCase.id,
      measures: plan.measures(limitCase.id),
      size: limitCase.size,
      sizes: plan.sizesOf(limitCase),
      series: limitCase.series.map((spec) => ({ ...spec, points: [] })),
      lowered: [],
      observed: [],
    };
    results.push(result);
    result.notRun = down ?? limitCase.notRun();
    if (result.notRun !== undefined) {
      plan.progress(`${limitCase.id}: not run, ${result.notRun}`);
      continue;
    }
    // The time left is shared by the cases still to run.
    const caseDeadline = now() + (plan.deadlineAt - now()) / (cases.length - index);
    const pace = { requests: 0, ms: 0, firstGuess: fastest.ms };
    await measureCase(limitCase, result, { ...plan, caseDeadline, pace, now });
    if (pace.requests > 0) fastest.ms = Math.min(fastest.ms, msPerRequest(pace));
    const failed = await plan.plainGetFails();
    if (failed !== undefined) {
      result.finding ??= {
        message: `after ${limitCase.id}, the server no longer answers a plain GET normally`,
        exchange: failed,
      };
      down = `the server stopped answering after ${limitCase.id}`;
    }
    plan.progress(caseLine(result));
  }
  return results;
}

interface CasePlan extends LimitsPlan {
  caseDeadline: number;
  /** The case's own pace: a slow operation of one case says nothing of another's. */
  pace: Pace;
  now: () => number;
}

async function measureCase(limitCase: LimitCase, result: CaseResult, plan: CasePlan): Promise<void> {
  // One repeat more than asked, the first at each size not kept: it pays for the code paths
  // the process has not run yet (compiling, first connections), which a small size would carry alone.
  const repeats = plan.repeats + 1;
  const costs = new Map<number, Repeat[]>();
  const memory: Point[] = [];
  const sampleMemory = (size: number) => {
    const bytes = plan.memory?.();
    if (bytes !== undefined) memory.push(pointOf(size, [bytes / 1024 / 1024]));
  };
  const measureAt = async (size: number, repeat: number) => {
    const cost = await limitCase.measure(size, repeat);
    const under = limitCase.condition?.();
    if (repeat > 0) costs.get(size)?.push(under === undefined ? { cost } : { cost, under });
  };
  const sizes = [...result.sizes].sort((a, b) => a - b);
  try {
    // Requests of the repeats still to come at the sizes prepared (turn about, after them all).
    let pending = 0;
    for (const [i, asked] of sizes.entries()) {
      const byRequests = (size: number) => limitCase.requests(size, repeats) * msPerRequest(plan.pace);
      // Where the target has shown a pace of its own (a version a second), a size takes at least that.
      const guessAt = (size: number) => Math.max(byRequests(size), limitCase.paced?.(size, repeats)?.ms ?? 0);
      const left = plan.caseDeadline - plan.now() - pending * msPerRequest(plan.pace);
      let size = asked;
      if (guessAt(asked) > left) {
        const fits = largestFitting(guessAt, sizes[i - 1] ?? 0, asked, left);
        // The pace is named where it alone would pass the time left: it is what bounds the size.
        const over = (size: number) => {
          const paced = limitCase.paced?.(size, repeats);
          const bound = paced !== undefined && paced.ms > left ? ` at ${paced.pace}` : "";
          return `about ${Math.ceil(guessAt(size) / 1000)} s${bound}: past the deadline`;
        };
        if (fits === undefined) {
          for (const skipped of sizes.slice(i)) result.lowered.push({ size: skipped, reason: over(skipped) });
          break;
        }
        result.lowered.push({ size: asked, reason: `lowered to ${fits}, ${over(asked)}` });
        for (const skipped of sizes.slice(i + 1)) result.lowered.push({ size: skipped, reason: over(skipped) });
        size = fits;
      }
      // Interleaved, the repeats come after every size is prepared: their requests are pending.
      const all = limitCase.requests(size, repeats);
      const later = limitCase.interleaved ? repeats * repeatRequests(limitCase, size, repeats) : 0;
      const requests = all - later;
      pending += later;
      const started = plan.now();
      try {
        await limitCase.prepare(size, repeats);
        costs.set(size, []);
        if (!limitCase.interleaved) for (let r = 0; r < repeats; r++) await measureAt(size, r);
      } catch (error) {
        if (!stopsSeries(error, size, result)) throw error;
        costs.delete(size);
        break;
      } finally {
        plan.pace.requests += requests;
        plan.pace.ms += plan.now() - started;
      }
      sampleMemory(size);
      if (limitCase.observe) result.observed.push({ size, said: await observed(limitCase.observe, size) });
      if (size !== asked) break;
    }
    if (limitCase.interleaved) await turnAbout([...costs.keys()], repeats, measureAt, result, costs);
  } catch (error) {
    if (error instanceof LimitFinding) result.finding = { message: error.message, exchange: error.exchange };
    else throw error;
  } finally {
    await limitCase.cleanup().catch(() => undefined);
  }
  const { kept, apart } = underOneCondition(costs, result.size.name);
  const notes = [...(apart === undefined ? [] : [apart]), ...(limitCase.notes?.() ?? [])];
  if (notes.length > 0) result.notes = notes;
  for (const series of result.series) {
    series.points = [...kept.entries()]
      .filter(([, repeated]) => repeated.length > 0)
      .map(([size, repeated]) =>
        pointOf(
          size,
          repeated.map((cost) => cost[series.name]),
        ),
      );
    series.fit = growthOf(series.points);
  }
  // Memory read after preparing a size that was then refused or lost measures nothing of it.
  const measured = memory.filter((point) => (kept.get(point.size)?.length ?? 0) > 0);
  if (measured.length > 0) {
    result.memory = { name: "resident memory", unit: "MB", points: measured, fit: growthOf(measured) };
  }
  result.growth = caseGrowth(result);
}

/** Each repeat of every size in turn; a size refused or lost midway ends there for all larger. */
async function turnAbout(
  sizes: number[],
  repeats: number,
  measureAt: (size: number, repeat: number) => Promise<void>,
  result: CaseResult,
  costs: Map<number, unknown[]>,
): Promise<void> {
  let live = sizes;
  for (let r = 0; r < repeats; r++) {
    for (const size of live) {
      try {
        await measureAt(size, r);
      } catch (error) {
        if (!stopsSeries(error, size, result)) throw error;
        for (const dropped of live.filter((s) => s >= size)) if (r === 0) costs.delete(dropped);
        live = live.filter((s) => s < size);
        break;
      }
    }
  }
}

/** What a case saw at a size; an answer it did not expect, or the deadline, is what it saw. */
async function observed(observe: (size: number) => Promise<string>, size: number): Promise<string> {
  try {
    return await observe(size);
  } catch (error) {
    if (error instanceof UnexpectedAnswer || error instanceof LimitReached || error instanceof RequestNotSent)
      return error.message;
    throw error;
  }
}

/** A refusal, an unexpected answer or the deadline ends the series at `size`: noted, and true. */
function stopsSeries(error: unknown, size: number, result: CaseResult): boolean {
  if (error instanceof LimitReached) result.limit = { size, said: error.message };
  else if (error instanceof UnexpectedAnswer) result.lowered.push({ size, reason: error.message });
  else if (error instanceof RequestNotSent) result.lowered.push({ size, reason: error.message });
  else return false;
  return true;
}

/**
 * The case's class: its series' classes, each taken one step down where the case expects it
 * to grow that way (an export sends every contact), the worst of them; memory counts too.
 */
export function caseGrowth(result: CaseResult): Growth | undefined {
  const classes = [...result.series, ...(result.memory ? [result.memory] : [])].flatMap((series) => {
    const growth = series.fit?.growth;
    if (growth === undefined) return [];
    // A series expected to grow linearly shows nothing beyond that unless it grows faster.
    return [series.expected === "linear" && growth !== "faster" ? "flat" : growth];
  });
  if (classes.length === 0) return undefined;
  const order: Growth[] = ["flat", "unclear", "linear", "faster"];
  return classes.reduce((worst, growth) => (order.indexOf(growth) > order.indexOf(worst) ? growth : worst));
}

/** The one line the console shows for a case. */
export function caseLine(result: CaseResult): string {
  if (result.notRun !== undefined) return `${result.id}: not run, ${result.notRun}`;
  const series = result.series
    .filter((s) => s.fit)
    .map((s) => `${s.name} ${s.fit?.growth} (${s.fit?.why.split(":")[0]})`)
    .join("; ");
  const extra = [
    result.limit && `limit at ${result.limit.size}: ${result.limit.said}`,
    ...result.lowered.map((l) => `${result.size.name} = ${l.size} not measured: ${l.reason}`),
    ...[...observedBySaying(result.observed)].map(
      ([said, sizes]) => `at ${result.size.name} = ${sizes.join(", ")}: ${said}`,
    ),
    result.finding && `FINDING: ${result.finding.message}`,
    ...(result.notes ?? []),
  ].filter(Boolean);
  return `${result.id}: ${result.growth ?? "no class"}${series ? ` — ${series}` : ""}${extra.length ? `; ${extra.join("; ")}` : ""}`;
}
