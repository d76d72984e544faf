/**
 * A rule binds every exchange of the run it covers, not only those of its own scenarios: a
 * grant another row's scenario got is evidence for the row about grants. A step marks its
 * scenario as judged with the whole run (WHOLE_RUN_MEDIA_TYPE, naming a check); once every
 * scenario has run, each such scenario that passed gets that check over every exchange of the
 * run, and fails, with the exchange shown, where the check finds one that breaks its rule. The
 * checks are the behaviours' (steps/<behaviour>/run-judge.ts, loaded by name from
 * harness/package.ts, never imported here): this module names no row.
 */
import type { TargetDescription } from "../description/target.ts";
import type { Exchange } from "../evidence/exchange.ts";
import { failureText, formatExchange } from "../evidence/transcript.ts";
import { EXCHANGES_MEDIA_TYPE, type ScenarioOutcome, WHOLE_RUN_MEDIA_TYPE } from "../judging/outcomes.ts";
import { RUN_JUDGE_FILES, suiteModuleUrl } from "../package.ts";

/** An exchange of the run, with the scenario that made it. */
export interface RunExchange {
  exchange: Exchange;
  /** `"A successful reply carries Authentication-Info" (features/digest/access.feature:31)` */
  scenario: string;
}

/** What a check found: the exchanges that break its rule, the first shown in the failure. */
export interface RunFinding {
  expected: string;
  got: string;
  evidence: [RunExchange, ...RunExchange[]];
}

/** A check over the run's exchanges: undefined where none breaks its rule. */
export type RunCheck = (exchanges: readonly RunExchange[], target: TargetDescription) => RunFinding | undefined;

/** What each run judge module exports: its checks by the name a step attaches. */
export interface RunJudgeModule {
  runChecks: Readonly<Record<string, RunCheck>>;
}

/** The exchanges a failure keeps beside its message, so the report shows them with the scenario. */
const EVIDENCE_KEPT = 10;

let loaded: Promise<Map<string, RunCheck>> | undefined;

function checks(): Promise<Map<string, RunCheck>> {
  loaded ??= Promise.all(RUN_JUDGE_FILES.map((file) => import(suiteModuleUrl(file)) as Promise<RunJudgeModule>)).then(
    (modules) => new Map(modules.flatMap((module) => Object.entries(module.runChecks))),
  );
  return loaded;
}

/**
 * The outcomes, each scenario judged with the whole run where a step asked: failed where its
 * check found a breach. The checks are the run judges' (`load`: a test's own).
 */
export async function judgedWithTheRun(
  outcomes: ScenarioOutcome[],
  target: TargetDescription,
  load: () => Promise<ReadonlyMap<string, RunCheck>> = checks,
): Promise<ScenarioOutcome[]> {
  const asking = outcomes.filter((o) => o.status === "passed" && checksAsked(o).length > 0);
  if (asking.length === 0) return outcomes;
  const known = await load();
  const exchanges = runExchanges(outcomes);
  const judged = new Map<ScenarioOutcome, ScenarioOutcome>();
  for (const outcome of asking) {
    for (const name of checksAsked(outcome)) {
      const check = known.get(name);
      if (!check) throw new Error(`no run check "${name}" in ${RUN_JUDGE_FILES.join(", ")} (a bug in the suite)`);
      const finding = check(exchanges, target);
      if (finding) {
        judged.set(outcome, failedWith(outcome, finding));
        break;
      }
    }
  }
  return outcomes.map((outcome) => judged.get(outcome) ?? outcome);
}

function checksAsked(outcome: ScenarioOutcome): string[] {
  return outcome.attachments.filter((a) => a.mediaType === WHOLE_RUN_MEDIA_TYPE).map((a) => a.body);
}

/** Every exchange the run's scenarios attached, in the order they finished, each with its scenario. */
export function runExchanges(outcomes: readonly ScenarioOutcome[]): RunExchange[] {
  return outcomes.flatMap((outcome) => {
    const scenario = `"${outcome.name}${outcome.examples ? ` [${outcome.examples}]` : ""}" (${outcome.location})`;
    return outcome.attachments
      .filter((a) => a.mediaType === EXCHANGES_MEDIA_TYPE)
      .flatMap((a) => (JSON.parse(a.body) as Exchange[]).map((exchange) => ({ exchange, scenario })));
  });
}

function failedWith(outcome: ScenarioOutcome, finding: RunFinding): ScenarioOutcome {
  const [first] = finding.evidence;
  const kept = finding.evidence.slice(0, EVIDENCE_KEPT).map((e) => e.exchange);
  return {
    ...outcome,
    status: "failed",
    message: failureText(
      finding.expected,
      finding.got,
      first.exchange,
      `in the exchange of the scenario ${first.scenario}`,
    ),
    attachments: [
      ...outcome.attachments,
      { mediaType: "text/plain", body: kept.map(formatExchange).join("\n\n") },
      { mediaType: EXCHANGES_MEDIA_TYPE, body: JSON.stringify(kept) },
    ],
  };
}
