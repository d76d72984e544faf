/**
 * The engine of `sxd fuzz`: draws requests from generators, shrinks each failure to the
 * smallest request that still fails the same way, groups the failures by row and kind, and
 * replays one. It knows no row: the generators (listed in harness/package.ts, FUZZ_FILES)
 * build the requests, send them and say which row a reply breaks.
 *
 *   const run = await campaign(generators, { seed: 1, budget: { requests: 400 } });
 *   for (const finding of run.findings) write(finding);
 */
import type { Exchange } from "./exchange.ts";

export interface FuzzFailure {
  row: string;
  /** How it failed: "granted", "5xx", "dropped", "not HTTP". */
  kind: string;
  why: string;
}

export interface FuzzTrial {
  /** Absent: the target did what the rows ask. */
  failure?: FuzzFailure;
  /** Every request the trial sent (the fresh challenge too); the last is the one judged. */
  exchanges: Exchange[];
}

/** A recipe is what a generator needs to build its request again over fresh state (a new nonce). */
export type Recipe = string[];

export interface FuzzGenerator {
  name: string;
  /** The control: the same request without a flaw must get in first; a string says why it did not. */
  prepare(): Promise<string | undefined>;
  /** The recipe of trial n: a generator may go through a fixed list first, then draw at random. */
  draw(random: () => number, n: number): Recipe;
  run(recipe: Recipe): Promise<FuzzTrial>;
  /** Recipes one step smaller (a mutation left out, a value shortened), smallest first. */
  smaller(recipe: Recipe): Recipe[];
  /** Lets go of what the generator holds open (connections). */
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

export async function campaign(
  generators: readonly FuzzGenerator[],
  options: { random: () => number; budget: FuzzBudget; now?: () => number },
): Promise<CampaignResult> {
  const now = options.now ?? Date.now;
  const started = now();
  const result: CampaignResult = { findings: [], trials: 0, requests: 0, elapsedMs: 0, skipped: [] };
  const ready: FuzzGenerator[] = [];
  for (const generator of generators) {
    // An unreachable target is a reason, not a crash.
    const reason = await generator.prepare().catch((error: Error) => `the target did not answer: ${error.message}`);
    if (reason === undefined) ready.push(generator);
    else result.skipped.push({ generator: generator.name, reason });
  }
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
): Promise<{ recipe: Recipe; failure: FuzzFailure; exchanges: Exchange[] }> {
  const failure = trial.failure as FuzzFailure;
  let best = { recipe, failure, exchanges: trial.exchanges };
  let budget = SHRINK_TRIALS;
  let smaller = true;
  while (smaller && budget > 0) {
    smaller = false;
    for (const candidate of generator.smaller(best.recipe)) {
      if (budget-- <= 0) break;
      const again = await generator.run(candidate);
      counted(again.exchanges.length);
      if (again.failure && keyOf(generator.name, again.failure) === keyOf(generator.name, failure)) {
        best = { recipe: candidate, failure: again.failure, exchanges: again.exchanges };
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
export async function loadGenerators(context: unknown): Promise<FuzzGenerator[]> {
  const { FUZZ_FILES, suiteModuleUrl } = await import("./package.ts");
  const modules = await Promise.all(FUZZ_FILES.map((file) => import(suiteModuleUrl(file))));
  return modules.flatMap((module) => (module.fuzzGenerators as (c: unknown) => FuzzGenerator[])(context));
}
