/**
 * `sxd fuzz`: arguments, the target (the bundled reference when no URL is given), the files of
 * the failures; the campaign itself is harness/fuzz/engine.ts.
 */
import { randomInt } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { resolveDescription } from "../harness/description/target.ts";
import { UsageError, valueOrUsageError } from "../harness/errors.ts";
import { formatExchange } from "../harness/evidence/transcript.ts";
import {
  campaign,
  curlOf,
  type Finding,
  type FuzzGenerator,
  loadGenerators,
  parseBudget,
  prepareAll,
  replay,
} from "../harness/fuzz/engine.ts";
import { firstUnreachable } from "../harness/wire/probe.ts";
import { RateLimits } from "../harness/wire/rate-limits.ts";
import { forgetRunState } from "../harness/wire/run-state.ts";
import { seededRandom } from "../lib/digest-mutants.ts";
import { REFERENCE_DESCRIPTION, referenceMode, startReference } from "../reference/index.ts";
import { parseOptions, withDefault } from "./option-parse.ts";
import { type DescribedTarget, describedTarget, targetOf } from "./options.ts";
import { readCertificates } from "./run-suite.ts";

interface FailureFile {
  generator: string;
  row: string;
  kind: string;
  why: string;
  recipe: string[];
  found: string[];
  count: number;
  seed: number;
  /** What the generator ran against (the password only with --show-secrets). */
  target: Record<string, string>;
  curl: string;
  /** The request judged and its reply. */
  exchange: string;
  /** Every exchange of the trial (the reads before and after, a fresh challenge), the judged one among them. */
  trial: string[];
}

export async function runFuzz(argv: string[], out: NodeJS.WritableStream): Promise<number> {
  const parsed = parseOptions("fuzz", argv, process.env);
  if (!parsed.ok) throw new UsageError(parsed.error);
  const given = parsed.value;
  if (given.help) {
    out.write((await import("./help.ts")).commandHelp("fuzz"));
    return 0;
  }
  const budget = parseBudget(withDefault("fuzz", "budget", given.text("budget")));
  if (!budget) throw new UsageError("--budget must be a number of requests (400) or of seconds (30s)");
  const seedGiven = valueOrUsageError(given.checked("seed"));
  const replayFile = given.text("replay");
  const recorded = replayFile === undefined ? undefined : readFailure(replayFile);
  const seed = recorded?.seed ?? (seedGiven === undefined ? randomInt(2 ** 31) : Number(seedGiven));
  // The target as every command that sends to one reads it (cli/options.ts).
  const described = valueOrUsageError(describedTarget(given));
  const settings = described.run;
  const tls = {
    ca: described.caFile === undefined ? undefined : readCertificates(described.caFile),
    insecure: described.insecure,
  };
  const { target, close } = await fuzzTarget(described);
  const stateDir = `fuzz-${process.pid}-${Date.now()}`;
  const pace = new RateLimits({ stateDir, rate: settings.rate, refusalWaitSeconds: settings.refusalWaitSeconds });
  const context = { target, timeoutMs: settings.timeoutMs, tls, maxBodyBytes: settings.maxBodyBytes, rate: pace };
  const generators = await loadGenerators(context);
  try {
    if (settings.waitSeconds > 0) {
      // --wait: as sxd test, the target's servers are given that long to start answering.
      const urls = [target.baseUrl, target.contactsUrl, target.messagingUrl].filter((url) => url !== undefined);
      const progress = (line: string) => process.stderr.write(`sxd: ${line}\n`);
      const unreachable = await firstUnreachable(urls, { ...settings, tls, progress });
      if (unreachable) throw new UsageError(`cannot reach ${unreachable.url}: ${unreachable.problem}`);
    }
    if (recorded) return await replayed(recorded, generators, out);
    const prepared = await prepareAll(generators);
    // Nothing to fuzz is one line, as any other reason sxd cannot start: no summary of nothing.
    if (prepared.unreachable) throw new UsageError(`the target did not answer: ${prepared.unreachable}`);
    if (prepared.ready.length === 0) {
      throw new UsageError(`nothing to fuzz: ${prepared.skipped.map((s) => `${s.generator}: ${s.reason}`).join("; ")}`);
    }
    out.write(`sxd fuzz: seed ${seed}, budget ${given.text("budget") ?? "400"}, target ${target.baseUrl}\n`);
    const run = await campaign(prepared, { random: seededRandom(seed), budget });
    for (const { generator, reason } of run.skipped) out.write(`  ${generator}: not run, ${reason}\n`);
    const rate = run.elapsedMs > 0 ? (run.requests * 1000) / run.elapsedMs : 0;
    out.write(
      `${run.trials} trials, ${run.requests} requests in ${(run.elapsedMs / 1000).toFixed(1)} s (${rate.toFixed(0)}/s)\n`,
    );
    if (run.findings.length === 0) {
      out.write("no failure found\n");
      return 0;
    }
    const dir = join(withDefault("fuzz", "report-dir", settings.reportDir), "fuzz");
    mkdirSync(dir, { recursive: true });
    for (const finding of run.findings) {
      const file = join(dir, `${finding.failure.row}-${finding.failure.kind.replace(/\W+/g, "-")}.json`);
      writeFileSync(
        file,
        `${JSON.stringify(failureFile(finding, seed, generatorOf(generators, finding.generator), given.switch("show-secrets") ?? false), null, 2)}\n`,
      );
      out.write(
        `${finding.failure.row} ${finding.failure.kind} (${finding.count}x): ${finding.recipe.join(" + ")}, shrunk from ${finding.found.join(" + ")}\n  ${file}\n`,
      );
    }
    return 1;
  } finally {
    await Promise.all(generators.map((g) => g.close?.()));
    await close();
    forgetRunState(stateDir);
  }
}

async function replayed(recorded: FailureFile, generators: FuzzGenerator[], out: NodeJS.WritableStream) {
  const generator = generatorOf(generators, recorded.generator);
  const reason = await generator.prepare().catch((error: Error) => `the target did not answer: ${error.message}`);
  if (reason) throw new UsageError(`cannot replay: ${reason}`);
  const { verdict, trials } = await replay(generator, recorded.recipe);
  const last = trials.find((t) => t.failure)?.failure;
  out.write(
    `${recorded.row} ${recorded.kind}: ${recorded.recipe.join(" + ")}: ${verdict}${last ? ` (${last.why})` : ""}\n`,
  );
  return verdict === "fixed" ? 0 : 1;
}

function generatorOf(generators: FuzzGenerator[], name: string): FuzzGenerator {
  const generator = generators.find((g) => g.name === name);
  if (!generator) throw new UsageError(`no generator "${name}" in this sxd`);
  return generator;
}

function failureFile(finding: Finding, seed: number, generator: FuzzGenerator, showSecrets: boolean): FailureFile {
  const judged = finding.judged ?? finding.exchanges.at(-1);
  return {
    generator: finding.generator,
    row: finding.failure.row,
    kind: finding.failure.kind,
    why: finding.failure.why,
    recipe: finding.recipe,
    found: finding.found,
    count: finding.count,
    seed,
    target: generator.describe(showSecrets),
    curl: judged ? curlOf(judged) : "",
    exchange: judged ? formatExchange(judged) : "",
    trial: finding.exchanges.map(formatExchange),
  };
}

function readFailure(path: string): FailureFile {
  try {
    const file = JSON.parse(readFileSync(path, "utf8")) as FailureFile;
    if (!Array.isArray(file.recipe) || typeof file.generator !== "string") throw new Error("not a failure of sxd fuzz");
    return file;
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as Error).message}`);
  }
}

/** The target described, or the bundled reference's snapshot and digest server where no URL is given. */
async function fuzzTarget(described: DescribedTarget) {
  const given = valueOrUsageError(targetOf(described.layers));
  if (given !== undefined) return { target: given, close: async () => {} };
  const mode = referenceMode(described.referenceFaults, described.referenceVariant);
  if (!mode.ok) throw new UsageError(mode.error);
  const reference = await startReference({
    host: "127.0.0.1",
    ports: { base: 0, contacts: 0, messaging: 0 },
    servers: ["base"],
    ...mode.value,
  });
  const resolved = resolveDescription([REFERENCE_DESCRIPTION, ...described.layers, { baseUrl: reference.urls.base }]);
  if (!resolved.ok) {
    await reference.close();
    throw new UsageError(resolved.error);
  }
  return { target: resolved.value, close: reference.close };
}
