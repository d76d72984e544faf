/**
 * The engine of `sxd fuzz`: draws requests from generators, shrinks each failure to the
 * smallest request that still fails the same way, groups the failures by row and kind, and
 * replays one. It knows no row: the generators (listed in harness/package.ts, FUZZ_FILES)
 * build the requests, send them and say which row a reply breaks.
 *
 *   const run = await campaign(await prepareAll(generators), { random, budget: { requests: 400 } });
 *   for (const finding of run.findings) write(finding);
 */
import type { TargetDescription } from "../description/target.ts";
import type { Exchange } from "../evidence/exchange.ts";
import type { TlsSettings } from "../wire/dispatcher.ts";
import type { RateLimits } from "../wire/rate-limits.ts";

export interface FuzzFailure {
  row: string;
  /** How it failed: "granted", "5xx", "dropped", "not HTTP". */
  kind: string;
  why: string;
}

export interface FuzzTrial {
  /** Absent: the target did what the rows ask. */
  failure?: FuzzFailure;
  /** Every request the trial sent (the fresh challenge, a read-back too). */
  exchanges: Exchange[];
  /** The request the verdict is about; default the last one sent. */
  judged?: Exchange;
}

/** A recipe is what a generator needs to build its request again over fresh state (a new nonce). */
export type Recipe = string[];

/** What a generator is given: the target, and how to send to it as every sxd run does. */
export interface FuzzContext {
  target: TargetDescription;
  timeoutMs: number;
  tls?: TlsSettings;
  /** Bytes of a reply read at most (--max-body); absent: a run's default. */
  maxBodyBytes?: number;
  /** The campaign's pace (--rate, and what the target's 429s allow); absent: unpaced. */
  rate?: RateLimits;
}

export interface FuzzGenerator {
  name: string;
  /** The control: the same request without a flaw must get in first; a string says why it did not. */
  prepare(): Promise<string | undefined>;
  /** The recipe of trial n: a generator may go through a fixed list first, then draw at random. */
  draw(random: () => number, n: number): Recipe;
  run(recipe: Recipe): Promise<FuzzTrial>;
  /** Recipes one step smaller (a mutation left out, a value shortened), smallest first. */
  smaller(recipe: Recipe): Recipe[];
  /** What a recipe runs against, for the failure file; secrets only when asked for. */
  describe(showSecrets: boolean): Record<string, string>;
  /** Lets go of what the generator holds open (connections, a resource it made). */
  close?(): Promise<void>;
}

export interface FuzzBudget {
  requests?: number;
  seconds?: number;
}

export interface Finding {
  generator: string;
  recipe: Recipe;
  /** The recipe first found, before shrinking. */
  found: Recipe;
  failure: FuzzFailure;
  /** The exchanges of the shrunk recipe's last run. */
  exchanges: Exchange[];
  /** The one of them the verdict is about. */
  judged?: Exchange;
  /** How many trials failed this way. */
  count: number;
}

export interface CampaignResult {
  findings: Finding[];
  trials: number;
  requests: number;
  elapsedMs: number;
  /** Generators that could not run, with the reason. */
  skipped: Array<{ generator: string; reason: string }>;
}

/** Shrinking stops after this many trials per failure, so a campaign stays within its budget's order. */
const SHRINK_TRIALS = 60;

const keyOf = (generator: string, f: FuzzFailure) => `${generator} ${f.row} ${f.kind}`;

export interface Prepared {
  ready: FuzzGenerator[];
  skipped: Array<{ generator: string; reason: string }>;
  /** Why the target could not be reached, where no generator got an answer at all. */
  unreachable?: string;
}

/** Each generator's control; an unreachable target is a reason, not a crash. */
export async function prepareAll(generators: readonly FuzzGenerator[]): Promise<Prepared> {
  const prepared: Prepared = { ready: [], skipped: [] };
  const silent: string[] = [];
  for (const generator of generators) {
    const reason = await generator.prepare().catch((error: Error) => {
      silent.push(error.message);
      return `the target did not answer: ${error.message}`;
    });
    if (reason === undefined) prepared.ready.push(generator);
    else prepared.skipped.push({ generator: generator.name, reason });
  }
  if (silent.length === generators.length && silent.length > 0) prepared.unreachable = silent[0];
  return prepared;
}

export async function campaign(
  prepared: Prepared,
  options: { random: () => number; budget: FuzzBudget; now?: () => number },
): Promise<CampaignResult> {
  const now = options.now ?? Date.now;
  const started = now();
  const ready = prepared.ready;
  const result: CampaignResult = { findings: [], trials: 0, requests: 0, elapsedMs: 0, skipped: prepared.skipped };
  const spent = () =>
    (options.budget.requests !== undefined && result.requests >= options.budget.requests) ||
    (options.budget.seconds !== undefined && now() - started >= options.budget.seconds * 1000);
  const byKey = new Map<string, Finding>();
  while (ready.length > 0 && !spent()) {
    const generator = ready[result.trials % ready.length];
    const recipe = generator.draw(options.random, Math.floor(result.trials / ready.length));
    result.trials++;
    const trial = await generator.run(recipe);
    result.requests += trial.exchanges.length;
    if (!trial.failure) continue;
    const key = keyOf(generator.name, trial.failure);
    const known = byKey.get(key);
    if (known) {
      known.count++;
      continue;
    }
    const shrunk = await shrink(generator, recipe, trial, (n) => {
      result.requests += n;
    });
    byKey.set(key, { generator: generator.name, found: recipe, count: 1, ...shrunk });
  }
  result.findings = [...byKey.values()];
  result.elapsedMs = now() - started;
  return result;
}

/** Greedy: the first smaller recipe that fails the same way replaces the recipe, until none does. */
export async function shrink(
  generator: FuzzGenerator,
  recipe: Recipe,
  trial: FuzzTrial,
  counted: (requests: number) => void = () => {},
): Promise<{ recipe: Recipe; failure: FuzzFailure; exchanges: Exchange[]; judged?: Exchange }> {
  const failure = trial.failure as FuzzFailure;
  let best = { recipe, failure, exchanges: trial.exchanges, judged: trial.judged };
  let budget = SHRINK_TRIALS;
  let smaller = true;
  while (smaller && budget > 0) {
    smaller = false;
    for (const candidate of generator.smaller(best.recipe)) {
      if (budget-- <= 0) break;
      const again = await generator.run(candidate);
      counted(again.exchanges.length);
      if (again.failure && keyOf(generator.name, again.failure) === keyOf(generator.name, failure)) {
        best = { recipe: candidate, failure: again.failure, exchanges: again.exchanges, judged: again.judged };
        smaller = true;
        break;
      }
    }
  }
  return best;
}

export type ReplayVerdict = "still fails" | "fixed" | "flaky";

/** The recipe run `times` times over fresh state: failing each time, never, or sometimes. */
export async function replay(
  generator: FuzzGenerator,
  recipe: Recipe,
  times = 3,
): Promise<{ verdict: ReplayVerdict; trials: FuzzTrial[] }> {
  const trials: FuzzTrial[] = [];
  for (let i = 0; i < times; i++) trials.push(await generator.run(recipe));
  const failed = trials.filter((t) => t.failure).length;
  return { verdict: failed === times ? "still fails" : failed === 0 ? "fixed" : "flaky", trials };
}

/** The request of an exchange as a curl command line, each value single-quoted for a POSIX shell. */
export function curlOf(exchange: Exchange): string {
  const q = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  const parts = ["curl", "-i", "-X", exchange.method];
  for (const [name, value] of Object.entries(exchange.requestHeaders)) parts.push("-H", q(`${name}: ${value}`));
  if (exchange.requestBody !== undefined) parts.push("--data-binary", q(String(exchange.requestBody)));
  // Dot segments as sent: curl would resolve them otherwise.
  if (/\/\.|%2e/i.test(exchange.url)) parts.push("--path-as-is");
  parts.push(q(exchange.url));
  return parts.join(" ");
}

/** "400" is 400 requests; "30s" is 30 seconds. */
export function parseBudget(text: string): FuzzBudget | undefined {
  const match = /^(\d{1,9})(s?)$/.exec(text.trim());
  if (!match || Number(match[1]) === 0) return undefined;
  return match[2] ? { seconds: Number(match[1]) } : { requests: Number(match[1]) };
}

/** Every generator of the files FUZZ_FILES lists, each given the same context. */
export async function loadGenerators(context: FuzzContext): Promise<FuzzGenerator[]> {
  const { FUZZ_FILES, suiteModuleUrl } = await import("../package.ts");
  const modules = await Promise.all(FUZZ_FILES.map((file) => import(suiteModuleUrl(file))));
  return modules.flatMap((module) => (module.fuzzGenerators as (c: FuzzContext) => FuzzGenerator[])(context));
}
