/**
 * `sxd limits`: the target as `sxd test` reads it (the bundled reference where no URL is
 * given), the sizes, repeats and gate of the command line, the server's memory where its
 * process is known, then the run (harness/limits/run.ts) and its reports.
 */
import { readFileSync } from "node:fs";
import { UsageError, valueOrUsageError } from "../harness/errors.ts";
import { loadLimitRows } from "../harness/judging/catalogue.ts";
import { GROWTH_ORDER, type Growth } from "../harness/limits/growth.ts";
import { plainGetFails } from "../harness/limits/health.ts";
import { limitsDocument } from "../harness/limits/report.ts";
import { type LimitsSettings, runLimits } from "../harness/limits/run.ts";
import { limitsSummary, writeLimitsReports } from "../harness/report/limits.ts";
import { LONG_LISTS, longListsDescribed, type RunningReference } from "../reference/index.ts";
import type { CommandIo } from "./io.ts";
import { parseOptions, withDefault } from "./option-parse.ts";
import { describedTarget, targetOf } from "./options.ts";
import { readCertificates, startBundledReference } from "./run-suite.ts";

export async function runLimitsCommand(argv: string[], io: CommandIo): Promise<number> {
  const parsed = parseOptions("limits", argv, io.env);
  if (!parsed.ok) throw new UsageError(parsed.error);
  const given = parsed.value;
  if (given.help) {
    io.stdout.write((await import("./help.ts")).commandHelp("limits"));
    return 0;
  }
  const described = valueOrUsageError(describedTarget(given));
  const failOn = gateOf(given.text("fail-on"));
  const sizes = sizesOf(given.list("sizes"));
  const only = casesOf(given.text("cases"));
  const repeats = valueOrUsageError(given.number("repeats"));
  const pid = valueOrUsageError(given.checked("server-pid")) as number | undefined;
  const timeoutMs = described.run.timeoutMs;
  const caFile = given.text("ca");
  const tls = { ca: caFile === undefined ? undefined : readCertificates(caFile), insecure: given.switch("insecure") };
  let target = valueOrUsageError(targetOf(described.layers));
  let reference: RunningReference | undefined;
  try {
    if (target === undefined) {
      // The reference makes the long lists LIM-5 measures (those --sizes asks for, else its own),
      // and its description names them; the user's layers come after and win.
      const longLists = sizes.byCase.get("LIM-5") ?? LONG_LISTS;
      const bundled = await startBundledReference(
        given.list("reference-fault"),
        undefined,
        [{ export: { longLists: longListsDescribed(longLists) } }, ...described.layers],
        { longLists },
      );
      reference = bundled.reference;
      target = bundled.target;
    }
    const unreachable = await plainGetFails(target, timeoutMs, tls);
    if (unreachable?.error !== undefined)
      throw new UsageError(`the target did not answer: GET ${unreachable.url}: ${unreachable.error}`);
    const settings: LimitsSettings = {
      target,
      timeoutMs,
      tls,
      rate: described.run.rate,
      deadlineSeconds: described.run.deadlineSeconds,
      repeats,
      sizes,
      ...(only ? { only } : {}),
      memory: memoryOf(pid, reference !== undefined),
      progress: (line) => io.stdout.write(`${line}\n`),
    };
    io.stdout.write(
      `sxd limits: ${target.baseUrl}, ${repeats} repeats a size, deadline ${settings.deadlineSeconds} s\n`,
    );
    const run = await runLimits(settings);
    const reportDir = withDefault("limits", "report-dir", described.run.reportDir);
    const doc = limitsDocument(run, target);
    const written = writeLimitsReports(reportDir, doc);
    io.stdout.write(limitsSummary(doc));
    io.stdout.write(`wrote ${written.join(", ")}\n`);
    return exitCodeOf(run.cases, failOn);
  } finally {
    await reference?.close();
  }
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
