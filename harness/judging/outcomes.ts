/**
 * Turns cucumber's message stream into scenario outcomes: which rows each scenario
 * checked, at which level, and how it ended. Pure: fed envelopes, returns values.
 */
import { type Envelope, getWorstTestStepResult, type TestStepResult, TestStepResultStatus } from "@cucumber/messages";
import { shorten } from "../../lib/shorten.ts";
import { type Level, readTags } from "./catalogue.ts";
import { collectLines } from "./scenarios.ts";
import { DescriptionUnfit, RateLimited, RequestNotSent } from "./step-errors.ts";

export type ScenarioStatus = "passed" | "failed" | "not run" | "not applicable";

export interface ScenarioOutcome {
  name: string;
  /** `features/snapshots/chain.feature:12` */
  location: string;
  rows: string[];
  level: Level | undefined;
  status: ScenarioStatus;
  /** For a Scenario Outline, its Examples row: `nc: 1, shape: too short`. */
  examples?: string;
  /** From the scenario's start to its end, as cucumber timed it. */
  durationMs?: number;
  /** The failure message, or why the scenario was not run. */
  message?: string;
  /**
   * Not run because the target kept refusing (429): unlike other scenarios not run, it reached
   * the target, so a run of only these is incomplete, not empty.
   */
  rateLimited?: boolean;
  /** Attachments of the scenario by media type. */
  attachments: Array<{ mediaType: string; body: string }>;
}

export const NOT_RUN_MEDIA_TYPE = "text/vnd.sxd.not-run";
export const NOT_APPLICABLE_MEDIA_TYPE = "text/vnd.sxd.not-applicable";
export const EXCHANGES_MEDIA_TYPE = "application/vnd.sxd.exchanges+json";
/**
 * What a scenario saw that the rule leaves open or that sxd staged (the oldest snapshot's
 * previous link, the backend request sxd's contacts server received): kept with the scenario
 * in the reports whatever its status, so a pass says what it rests on.
 */
export const OBSERVED_MEDIA_TYPE = "text/vnd.sxd.observed";

/**
 * A step's word that its scenario is judged with the whole run too: the body names a check of a
 * behaviour's run judge (harness/run/whole-run.ts), which reads every exchange of the run once
 * every scenario has run, so an exchange another scenario made that breaks the rule fails it.
 */
export const WHOLE_RUN_MEDIA_TYPE = "text/vnd.sxd.whole-run";

/** The observations a scenario attached, in order. */
export function observationsOf(attachments: ScenarioOutcome["attachments"]): string[] {
  return attachments.filter((a) => a.mediaType === OBSERVED_MEDIA_TYPE).map((a) => a.body);
}

/** Collects envelopes as they arrive; `outcomes()` reads the result when the run is over. */
export class OutcomeCollector {
  private readonly pickles = new Map<string, { name: string; uri: string; astNodeIds: string[]; tags: string[] }>();
  private readonly lines = new Map<string, number>();
  private readonly exampleRows = new Map<string, string>();
  private readonly testCases = new Map<string, string>();
  private readonly started = new Map<
    string,
    {
      testCaseId: string;
      startedAt: number;
      durationMs?: number;
      results: TestStepResult[];
      attachments: ScenarioOutcome["attachments"];
      finished: boolean;
    }
  >();

  add(envelope: Envelope): void {
    if (envelope.gherkinDocument) this.indexLines(envelope.gherkinDocument);
    if (envelope.pickle) {
      const { id, name, uri, astNodeIds, tags } = envelope.pickle;
      this.pickles.set(id, { name, uri, astNodeIds: [...astNodeIds], tags: tags.map((t) => t.name) });
    }
    if (envelope.testCase) this.testCases.set(envelope.testCase.id, envelope.testCase.pickleId);
    if (envelope.testCaseStarted) {
      const { id, testCaseId, timestamp } = envelope.testCaseStarted;
      this.started.set(id, { testCaseId, startedAt: millis(timestamp), results: [], attachments: [], finished: false });
    }
    if (envelope.testStepFinished) {
      const { testCaseStartedId, testStepResult } = envelope.testStepFinished;
      this.started.get(testCaseStartedId)?.results.push(testStepResult);
    }
    if (envelope.attachment?.testCaseStartedId) {
      const { testCaseStartedId, mediaType, body } = envelope.attachment;
      this.started.get(testCaseStartedId)?.attachments.push({ mediaType, body });
    }
    if (envelope.testCaseFinished) {
      const run = this.started.get(envelope.testCaseFinished.testCaseStartedId);
      if (run && !envelope.testCaseFinished.willBeRetried) {
        run.finished = true;
        run.durationMs = millis(envelope.testCaseFinished.timestamp) - run.startedAt;
      }
    }
  }

  private indexLines(document: NonNullable<Envelope["gherkinDocument"]>): void {
    collectLines(document.feature, this.lines);
    collectExampleRows(document.feature, this.exampleRows);
  }

  outcomes(): ScenarioOutcome[] {
    return [...this.started.keys()].flatMap((id) => this.outcome(id) ?? []);
  }

  /** The outcome of one finished scenario (by its testCaseStarted id), as soon as it finished. */
  outcome(testCaseStartedId: string): ScenarioOutcome | undefined {
    const run = this.started.get(testCaseStartedId);
    if (!run?.finished) return undefined;
    const pickle = this.pickles.get(this.testCases.get(run.testCaseId) ?? "");
    if (!pickle) return undefined;
    // The last AST node is the Examples row for an outline, the scenario itself otherwise.
    const lastNode = pickle.astNodeIds.at(-1) ?? "";
    const line = this.lines.get(lastNode) ?? 0;
    const { rows, levels } = readTags(pickle.tags);
    const ending = summarise(run.results, run.attachments);
    return {
      name: pickle.name,
      location: `${pickle.uri}:${line}`,
      rows,
      level: levels[0],
      examples: this.exampleRows.get(lastNode),
      durationMs: run.durationMs,
      ...ending,
      attachments: run.attachments,
    };
  }
}

/**
 * Names that tell scenarios apart: an outline's name that repeats gets its Examples row,
 * one that still repeats its location. In the order of the scenarios given.
 */
export function caseNames(scenarios: ScenarioOutcome[]): string[] {
  const repeated = (names: string[]) => (name: string) => names.filter((n) => n === name).length > 1;
  const plain = scenarios.map((s) => s.name);
  const withExamples = scenarios.map((s, i) =>
    repeated(plain)(s.name) && s.examples ? `${s.name} [${s.examples}]` : plain[i],
  );
  return withExamples.map((name, i) => (repeated(withExamples)(name) ? `${name} (${scenarios[i].location})` : name));
}

function millis(timestamp: { seconds: number; nanos: number }): number {
  return timestamp.seconds * 1000 + timestamp.nanos / 1e6;
}

/** The longest Examples cell a case name quotes whole. */
const CELL_LIMIT = 40;

type GherkinFeature = NonNullable<Envelope["gherkinDocument"]>["feature"];
type FeatureChild = NonNullable<GherkinFeature>["children"][number];

/** Maps every Examples row id to `header: value, …` for the outlines of a feature. */
function collectExampleRows(feature: GherkinFeature, rows: Map<string, string>): void {
  const visit = (children: readonly FeatureChild[]) => {
    for (const child of children) {
      if (child.rule) visit(child.rule.children);
      for (const examples of child.scenario?.examples ?? []) {
        const headers = examples.tableHeader?.cells.map((c) => c.value) ?? [];
        for (const row of examples.tableBody) {
          const cells = row.cells.map((cell, i) => `${headers[i] ?? i + 1}: ${shorten(cell.value, CELL_LIMIT)}`);
          rows.set(row.id, cells.join(", "));
        }
      }
    }
  };
  visit(feature?.children ?? []);
}

function summarise(
  results: readonly TestStepResult[],
  attachments: ScenarioOutcome["attachments"],
): Pick<ScenarioOutcome, "status" | "message" | "rateLimited"> {
  // sxd's own decision to stop asking the target, and a description that does not fit it, end a
  // scenario as not run; only the error's class says so (step-errors.ts), never its words, which
  // may quote the target's reply.
  const stopped = results.find((r) => r.status === TestStepResultStatus.FAILED)?.exception;
  if (stopped?.type === RequestNotSent.name || stopped?.type === DescriptionUnfit.name) {
    return { status: "not run", message: stopped.message };
  }
  if (stopped?.type === RateLimited.name) return { status: "not run", message: stopped.message, rateLimited: true };
  // Cucumber's own ranking of step results: the worst one decides the scenario.
  const worst = getWorstTestStepResult(results);
  switch (worst.status) {
    case TestStepResultStatus.PASSED:
      return { status: "passed" };
    case TestStepResultStatus.SKIPPED: {
      const notApplicable = attachments.find((a) => a.mediaType === NOT_APPLICABLE_MEDIA_TYPE)?.body;
      if (notApplicable !== undefined) return { status: "not applicable", message: notApplicable };
      const reason = attachments.find((a) => a.mediaType === NOT_RUN_MEDIA_TYPE)?.body;
      return { status: "not run", message: reason ?? "skipped without a reason (a bug in the suite)" };
    }
    default:
      return { status: "failed", message: worst.message ?? describeStatus(worst.status) };
  }
}

function describeStatus(status: string): string {
  switch (status) {
    case "UNDEFINED":
      return "a step has no definition (a bug in the suite)";
    case "AMBIGUOUS":
      return "a step matches several definitions (a bug in the suite)";
    case "PENDING":
      return "a step is pending (a bug in the suite)";
    default:
      return status.toLowerCase();
  }
}
