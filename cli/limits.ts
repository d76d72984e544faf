/**
 * `sxd limits`: the target as `sxd test` reads it (the bundled reference where no URL is
 * given), the sizes, repeats and gate of the command line, the server's memory where its
 * process is known, then the run (harness/limits/run.ts) and its reports.
 */
import { readFileSync } from "node:fs";
import type { TargetDescription } from "../harness/description/target.ts";
import { UsageError, valueOrUsageError } from "../harness/errors.ts";
import type { BundledReference } from "../harness/evidence/described-target.ts";
import { loadLimitRows } from "../harness/judging/catalogue.ts";
import { GROWTH_ORDER, type Growth } from "../harness/limits/growth.ts";
import { limitsDocument } from "../harness/limits/report.ts";
import { type LimitsSettings, runLimits } from "../harness/limits/run.ts";
import { limitsSummary, writeLimitsReports } from "../harness/report/limits.ts";
import { firstUnreachable } from "../harness/wire/probe.ts";
import { LONG_LISTS, longListsDescribed, type RunningReference } from "../reference/index.ts";
import type { CommandIo } from "./io.ts";
import { parseOptions, withDefault } from "./option-parse.ts";
import { type DescribedTarget, describedTarget, targetOf } from "./options.ts";
import { bundledReference, readCertificates, startBundledReference } from "./run-suite.ts";

/** What `sxd limits` was asked: the target as every command that sends to one reads it, and the command's own options. */
export interface LimitsArgs {
  described: DescribedTarget;
  /** Undefined where no layer gives a URL: the bundled reference is started. */
  target: TargetDescription | undefined;
  sizes: LimitsSettings["sizes"];
  only: Set<string> | undefined;
  repeats: number;
  pid: number | undefined;
  failOn: Growth | undefined;
}

/** The command line and environment read, pure but for the description file; a usage error is thrown. */
export function parseLimitsArgs(
  argv: string[],
  env: NodeJS.ProcessEnv,
  readFile?: (path: string) => string,
): LimitsArgs | { help: true } {
  const parsed = parseOptions("limits", argv, env);
  if (!parsed.ok) throw new UsageError(parsed.error);
  const given = parsed.value;
  if (given.help) return { help: true };
  const described = valueOrUsageError(describedTarget(given, readFile));
  return {
    described,
    target: valueOrUsageError(targetOf(described.layers)),
    failOn: gateOf(given.text("fail-on")),
    sizes: sizesOf(given.list("sizes")),
    only: casesOf(given.text("cases")),
    repeats: valueOrUsageError(given.number("repeats")),
    pid: valueOrUsageError(given.checked("server-pid")) as number | undefined,
  };
}

export async function runLimitsCommand(argv: string[], io: CommandIo): Promise<number> {
  const args = parseLimitsArgs(argv, io.env);
  if ("help" in args) {
    io.stdout.write((await import("./help.ts")).commandHelp("limits"));
    return 0;
  }
  const { described, sizes, repeats } = args;
  const { run } = described;
  const tls = {
    ca: described.caFile === undefined ? undefined : readCertificates(described.caFile),
    insecure: described.insecure,
  };
  let target = args.target;
  let reference: RunningReference | undefined;
  let bundledMode: BundledReference | undefined;
  try {
    if (target === undefined) {
      // The reference makes the long lists LIM-5 measures (those --sizes asks for, else its own),
      // and its description names them; the user's layers come after and win.
      const longLists = sizes.byCase.get("LIM-5") ?? LONG_LISTS;
      const bundled = await startBundledReference(
        described.referenceFaults,
        described.referenceVariant,
        [{ export: { longLists: longListsDescribed(longLists) } }, ...described.layers],
        { longLists },
      );
      reference = bundled.reference;
      target = bundled.target;
      bundledMode = bundledReference(bundled.mode);
    }
    // As sxd test: every server of the target answers (--wait: once it has started), or a usage error.
    const urls = [target.baseUrl, target.contactsUrl, target.messagingUrl].filter((url) => url !== undefined);
    const progress = (line: string) => io.stderr.write(`sxd: ${line}\n`);
    const unreachable = await firstUnreachable(urls, { ...run, tls, progress });
    if (unreachable) throw new UsageError(`cannot reach ${unreachable.url}: ${unreachable.problem}`);
    const settings: LimitsSettings = {
      target,
      ...limitsReach(described),
      tls,
      repeats,
      sizes,
      ...(args.only ? { only: args.only } : {}),
      memory: memoryOf(args.pid, reference !== undefined),
      progress: (line) => io.stdout.write(`${line}\n`),
    };
    const insecure = tls.insecure ? ", TLS certificates not checked (--insecure)" : "";
    io.stdout.write(
      `sxd limits: ${target.baseUrl}, ${repeats} repeats a size, deadline ${settings.deadlineSeconds} s${insecure}\n`,
    );
    const measured = await runLimits(settings);
    const reportDir = withDefault("limits", "report-dir", run.reportDir);
    const doc = limitsDocument(measured, target, bundledMode);
    const written = writeLimitsReports(reportDir, doc);
    io.stdout.write(limitsSummary(doc));
    io.stdout.write(`wrote ${written.join(", ")}\n`);
    return exitCodeOf(measured.cases, args.failOn);
  } finally {
    await reference?.close();
  }
}

/** How the run reaches the target, from the settings sxd test reads the same way (harness/description/settings.ts). */
export function limitsReach(
  described: DescribedTarget,
): Pick<LimitsSettings, "timeoutMs" | "rate" | "refusalWaitSeconds" | "maxBodyBytes" | "deadlineSeconds"> {
  const { timeoutMs, rate, refusalWaitSeconds, maxBodyBytes, deadlineSeconds } = described.run;
  return { timeoutMs, rate, refusalWaitSeconds, maxBodyBytes, deadlineSeconds };
}

/** 1 where a case has a finding, or grows as the gate names or worse; else 0. */
export function exitCodeOf(
  cases: ReadonlyArray<{ finding?: unknown; growth?: Growth }>,
  failOn: Growth | undefined,
): number {
  if (cases.some((c) => c.finding !== undefined)) return 1;
  if (failOn === undefined) return 0;
  const bar = GROWTH_ORDER.indexOf(failOn);
  return cases.some((c) => c.growth !== undefined && GROWTH_ORDER.indexOf(c.growth) >= bar) ? 1 : 0;
}

function gateOf(text: string | undefined): Growth | undefined {
  if (text === undefined) return undefined;
  if (text === "linear" || text === "faster") return text;
  throw new UsageError(`--fail-on takes linear or faster, got "${text}"`);
}

/** --cases: LIM-n IDs, comma-separated; each must be a case of the catalogue. */
function casesOf(text: string | undefined): Set<string> | undefined {
  if (text === undefined) return undefined;
  const known = new Set(loadLimitRows().map((row) => row.id));
  const ids = text.split(",").map((id) => id.trim().toUpperCase());
  const unknown = ids.find((id) => !known.has(id));
  if (unknown !== undefined) throw new UsageError(`--cases: "${unknown}" is no LIM case (${[...known].join(", ")})`);
  return new Set(ids);
}

/** --sizes: a factor for every case (0 < F <= 1), or LIM-n=A,B,... for one case. */
export function sizesOf(values: readonly string[]): LimitsSettings["sizes"] {
  const byCase = new Map<string, number[]>();
  let factor = 1;
  for (const value of values) {
    const one = /^(LIM-\d+)=(\d+(?:,\d+)*)$/.exec(value);
    if (one) {
      byCase.set(
        one[1],
        [...new Set(one[2].split(",").map(Number))].filter((n) => n > 0),
      );
      continue;
    }
    const f = Number(value);
    if (!/^\s*$/.test(value) && f > 0 && f <= 1) factor = f;
    else
      throw new UsageError(
        `--sizes takes a factor above 0 up to 1 (0.1), or LIM-n=A,B,.. (LIM-1=10,50,200), got "${value}"`,
      );
  }
  return { byCase, factor };
}

/** Whose memory is read: the given process's, this process's where it runs the bundled reference. */
function memoryOf(pid: number | undefined, bundled: boolean): LimitsSettings["memory"] {
  if (pid !== undefined) {
    const read = () => residentBytes(pid);
    if (read() === undefined) throw new UsageError(`--server-pid ${pid}: no such process to read the memory of here`);
    return { read, whose: `process ${pid} (--server-pid)` };
  }
  if (bundled)
    return {
      read: () => process.memoryUsage.rss(),
      whose: "the bundled reference, in sxd's own process (its memory counts sxd's)",
    };
  return { notObserved: "the server's process is not known here (--server-pid PID, for a server on this machine)" };
}

/** VmRSS of /proc/PID/status (Linux); undefined where there is no such process or file. */
function residentBytes(pid: number): number | undefined {
  try {
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}
