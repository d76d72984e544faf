/**
 * One `sxd limits` run, given its target: the LIM cases loaded from each behaviour
 * (harness/package.ts, LIMIT_FILES), their sizes (the catalogue's, or as --sizes lowered them),
 * the pace and the deadline every request keeps to, and the engine (measure.ts).
 */

import type { TargetDescription } from "../description/target.ts";
import { loadLimitRows } from "../judging/catalogue.ts";
import type { TlsSettings } from "../wire/dispatcher.ts";
import { RateLimits } from "../wire/rate-limits.ts";
import { forgetRunState } from "../wire/run-state.ts";
import type { LimitCase, LimitContext } from "./case.ts";
import { plainGetFails } from "./health.ts";
import { type CaseResult, measureLimits } from "./measure.ts";

export interface LimitsSettings {
  target: TargetDescription;
  timeoutMs: number;
  tls: TlsSettings;
  /** --rate: requests a second at most, from the start; absent: the pace the target's 429s allow. */
  rate?: number;
  /** --refusal-wait: seconds the run may spend waiting after refusals (429); absent: the default. */
  refusalWaitSeconds?: number;
  /** --max-body: bytes of a reply read at most, where a case does not read larger ones by design. */
  maxBodyBytes: number;
  deadlineSeconds: number;
  repeats: number;
  /** The cases to run by ID; all where absent. */
  only?: ReadonlySet<string>;
  /** Sizes by case ID (--sizes LIM-1=10,100), and a factor for the others (--sizes 0.1). */
  sizes: { byCase: ReadonlyMap<string, number[]>; factor: number };
  /** The server's resident memory in bytes, where its process is known; and why not, where not. */
  memory: { read: () => number | undefined; whose: string } | { notObserved: string };
  progress: (line: string) => void;
}

export interface LimitsRun {
  cases: CaseResult[];
  startedAt: string;
  elapsedMs: number;
  repeats: number;
  deadlineSeconds: number;
  memory: string;
}

/** The cases of every behaviour, in the catalogue's order. */
export async function loadLimitCases(context: LimitContext): Promise<LimitCase[]> {
  const { LIMIT_FILES, suiteModuleUrl } = await import("../package.ts");
  const modules = await Promise.all(LIMIT_FILES.map((file) => import(suiteModuleUrl(file))));
  const cases = modules.flatMap((module) => (module.limitCases as (c: LimitContext) => LimitCase[])(context));
  const order = loadLimitRows().map((row) => row.id);
  return cases.sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
}

/**
 * A case's sizes: as given for it, else its defaults times the factor (each at least 1, none
 * twice); where the target holds the sizes, those the factor times the largest reaches (at least the smallest).
 */
export function sizesFor(
  limitCase: Pick<LimitCase, "id" | "defaultSizes" | "smallestSize" | "sizesHeld">,
  sizes: LimitsSettings["sizes"],
): number[] {
  const given = sizes.byCase.get(limitCase.id);
  if (given) return given;
  if (limitCase.sizesHeld) {
    const reached = Math.max(...limitCase.defaultSizes) * sizes.factor;
    const kept = limitCase.defaultSizes.filter((size) => size <= reached);
    return kept.length > 0 ? kept : limitCase.defaultSizes.slice(0, 1);
  }
  const smallest = limitCase.smallestSize ?? 1;
  return [...new Set(limitCase.defaultSizes.map((size) => Math.max(smallest, Math.round(size * sizes.factor))))];
}

export async function runLimits(settings: LimitsSettings): Promise<LimitsRun> {
  const started = Date.now();
  const deadlineAt = started + settings.deadlineSeconds * 1000;
  const stateDir = `limits-${process.pid}-${started}`;
  const rate = new RateLimits({ stateDir, rate: settings.rate, refusalWaitSeconds: settings.refusalWaitSeconds });
  const guard = {
    refusal: () => (Date.now() > deadlineAt ? `the deadline of ${settings.deadlineSeconds} s has passed` : undefined),
    record: () => undefined,
  };
  const context: LimitContext = {
    target: settings.target,
    timeoutMs: settings.timeoutMs,
    tls: settings.tls,
    maxBodyBytes: settings.maxBodyBytes,
    rate,
    guard,
  };
  const rows = new Map(loadLimitRows().map((row) => [row.id, row]));
  try {
    const loaded = await loadLimitCases(context);
    const chosen = settings.only ? loaded.filter((c) => settings.only?.has(c.id)) : loaded;
    const cases = await measureLimits(chosen, {
      measures: (id) => rows.get(id)?.measures ?? "",
      sizesOf: (limitCase) => sizesFor(limitCase, settings.sizes),
      repeats: settings.repeats,
      deadlineAt,
      ...("read" in settings.memory ? { memory: settings.memory.read } : {}),
      plainGetFails: () => plainGetFails(settings.target, settings.timeoutMs, settings.tls),
      progress: settings.progress,
    });
    return {
      cases,
      startedAt: new Date(started).toISOString(),
      elapsedMs: Date.now() - started,
      repeats: settings.repeats,
      deadlineSeconds: settings.deadlineSeconds,
      memory: "read" in settings.memory ? settings.memory.whose : `not observed: ${settings.memory.notObserved}`,
    };
  } finally {
    forgetRunState(stateDir);
  }
}
