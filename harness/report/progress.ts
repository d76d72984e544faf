/**
 * The console while the suite runs: one character per scenario, in the verdicts of the
 * summary (`.` passed, `F` failed, `W` warned, `x` expected failure, `-` not run or not
 * applicable), and no failure details: the summary prints each failure with its exchanges,
 * once. Loaded by cucumber as a formatter; its options come through formatOptions.sxd.
 */
import type { Envelope } from "@cucumber/messages";
import { OutcomeCollector } from "../judging/outcomes.ts";
import { type JudgeOptions, type RowVerdict, scenarioVerdict } from "../judging/verdicts.ts";
import { Formatter, type IFormatterOptions } from "./cucumber-formatter.ts";

/** What run-suite hands the formatter; a type, not an interface, so it counts as JSON. */
export type ProgressOptions = {
  strict: boolean;
  /** Row IDs listed in --expect-fail. */
  expectedFailures: string[];
};

const CHARACTERS: Record<RowVerdict, string> = {
  passed: ".",
  fixed: ".",
  failed: "F",
  warning: "W",
  "expected failure": "x",
  "not run": "-",
  "not applicable": "-",
};

/** Scenarios per line, each line ending with how far the run is. */
const LINE_LENGTH = 50;

export default class ProgressFormatter extends Formatter {
  static override readonly documentation = "One character per scenario in sxd's verdicts; no failure details.";
  private readonly collector = new OutcomeCollector();
  private readonly judgeOptions: JudgeOptions;
  private readonly tally = new Map<RowVerdict, number>();
  private total = 0;
  private done = 0;

  constructor(options: IFormatterOptions) {
    super(options);
    const given = (options.parsedArgvOptions.sxd ?? {}) as Partial<ProgressOptions>;
    this.judgeOptions = {
      strict: given.strict ?? false,
      expectedFailures: new Map((given.expectedFailures ?? []).map((id) => [id, ""])),
    };
    options.eventBroadcaster.on("envelope", (envelope: Envelope) => this.onEnvelope(envelope));
  }

  private onEnvelope(envelope: Envelope): void {
    this.collector.add(envelope);
    if (envelope.testCase) this.total++;
    if (envelope.testCaseFinished && !envelope.testCaseFinished.willBeRetried) {
      const outcome = this.collector.outcome(envelope.testCaseFinished.testCaseStartedId);
      if (outcome) this.scenarioDone(scenarioVerdict(outcome, this.judgeOptions));
    }
    const hook = envelope.testRunHookFinished?.result;
    if (hook && hook.status !== "PASSED")
      this.log(`\ncucumber: a hook of the run ended ${hook.status}: ${hook.message}\n`);
    if (envelope.testRunFinished) this.runDone(envelope.testRunFinished);
  }

  private scenarioDone(verdict: RowVerdict): void {
    this.tally.set(verdict, (this.tally.get(verdict) ?? 0) + 1);
    this.done++;
    this.log(CHARACTERS[verdict]);
    if (this.done % LINE_LENGTH === 0 || this.done === this.total) this.log(` ${this.done}/${this.total}\n`);
  }

  private runDone(finished: NonNullable<Envelope["testRunFinished"]>): void {
    if (this.done % LINE_LENGTH !== 0 && this.done !== this.total) this.log("\n");
    const parts = [...this.tally].map(([verdict, n]) => `${n} ${verdict === "warning" ? "warned" : verdict}`);
    this.log(`${this.done} scenarios${parts.length > 0 ? `: ${parts.join(", ")}` : ""}\n`);
    const problem = finished.exception?.message ?? finished.message;
    if (problem) this.log(`cucumber: ${problem}\n`);
  }
}
