// npm run bench, the gateway section: the whole suite (the default samples of the security rows)
// behind a rate-limiting gateway, a token bucket of 10 and of 30 requests a second (burst 10, 429
// without Retry-After), with the defaults: sxd finds the pace itself. Beside the same gateway
// without a limit. Prints the wall time against the least the limit allows (the requests that got
// through / the rate), the share of requests refused and the pace sxd settled on. The goal:
// conformant, at most a quarter refused, within 1.3 times the least. Nothing is asserted.
import { loadavg } from "node:os";
import { DEFAULT_SECURITY_SAMPLES } from "../../harness/run/world-parameters.ts";
import { type GatewayRules, gatedReference, runBehind } from "../../test/support/gateway.ts";
import { median } from "./stats.ts";

const RUNS: Array<{ label: string; rules: GatewayRules }> = [
  { label: "no limit", rules: { perSecond: Number.POSITIVE_INFINITY, burst: Number.POSITIVE_INFINITY } },
  { label: "limit 10/s", rules: { perSecond: 10, burst: 10 } },
  { label: "limit 30/s", rules: { perSecond: 30, burst: 10 } },
];

export async function benchGateway(): Promise<void> {
  process.stdout.write("\nthe whole suite behind a gateway (token bucket, burst 10, no Retry-After, --parallel 2):\n");
  for (const { label, rules } of RUNS) {
    const gateway = await gatedReference(rules);
    try {
      const run = await runBehind(gateway, { securitySamples: DEFAULT_SECURITY_SAMPLES });
      const sent = gateway.forwarded + gateway.refused;
      const least = gateway.forwarded / rules.perSecond;
      const settled = run.output.match(/sxd settled on (\d+) requests a second/)?.[1];
      const waited = run.output.match(/the run spent ([\d.]+) s waiting/)?.[1] ?? "0";
      process.stdout.write(
        `  ${label.padEnd(12)} ${run.seconds.toFixed(1).padStart(6)} s  ${run.judgement.overall.padEnd(14)} ` +
          `${gateway.forwarded} through, ${gateway.refused} refused (${((100 * gateway.refused) / sent).toFixed(1)}%)` +
          (least > 0 ? `, ${(run.seconds / least).toFixed(2)}x the least (${least.toFixed(1)} s)` : "") +
          (settled === undefined ? "" : `, settled on ${settled}/s, waits ${waited} s`) +
          `  [load ${loadavg()[0].toFixed(1)}]\n`,
      );
    } finally {
      await gateway.close();
    }
  }
}

/** A login lockout as the issue saw it: after five failed logins, 429 without Retry-After for 2 s, once. */
const LOCKOUT = { failedLogins: 5, seconds: 2 };

/** Rounds of the lockout section, each a run without the lockout and one with it. */
const LOCKOUT_ROUNDS = Number(process.env.SXD_BENCH_LOCKOUT_ROUNDS ?? 3);

/**
 * npm run bench lockout: the whole suite (default samples, --parallel 2) through the gateway
 * without a limit, and through it with a login lockout, in turns. Prints each run, the medians
 * with their range, the ratio, and the goal: with the lockout at most 1.5 times the run without
 * it plus the lockout's seconds, and every row's verdict the same.
 */
export async function benchLockout(): Promise<void> {
  process.stdout.write(
    `\nthe whole suite through a gateway without a limit, and with a login lockout (after ${LOCKOUT.failedLogins} failed logins, 429 without Retry-After for ${LOCKOUT.seconds} s, once), --parallel 2, ${LOCKOUT_ROUNDS} rounds:\n`,
  );
  const times = { without: [] as number[], with: [] as number[] };
  const differences: string[] = [];
  for (let round = 1; round <= LOCKOUT_ROUNDS; round++) {
    const verdicts: Array<Map<string, string>> = [];
    for (const locked of [false, true]) {
      const gateway = await gatedReference({
        perSecond: Number.POSITIVE_INFINITY,
        burst: Number.POSITIVE_INFINITY,
        ...(locked ? { lockout: LOCKOUT } : {}),
      });
      try {
        const run = await runBehind(gateway, { securitySamples: DEFAULT_SECURITY_SAMPLES });
        (locked ? times.with : times.without).push(run.seconds);
        verdicts.push(new Map(run.judgement.rows.map((row) => [row.row.id, row.verdict])));
        const settled = run.output.match(/sxd settled on (\d+) requests a second/)?.[1];
        process.stdout.write(
          `  round ${round}, ${(locked ? "lockout" : "no lockout").padEnd(10)} ${run.seconds.toFixed(1).padStart(6)} s  ` +
            `${run.judgement.overall.padEnd(14)} ${gateway.forwarded} through, ${gateway.refused} refused` +
            (locked ? ` (${gateway.lockedOut} in the lockout)` : "") +
            (settled === undefined ? "" : `, settled on ${settled}/s`) +
            `  [load ${loadavg()[0].toFixed(1)}]\n`,
        );
      } finally {
        await gateway.close();
      }
    }
    const [without, withLockout] = verdicts as [Map<string, string>, Map<string, string>];
    for (const [row, verdict] of without) {
      if (withLockout.get(row) !== verdict)
        differences.push(`round ${round} ${row}: ${verdict} → ${withLockout.get(row)}`);
    }
  }
  const range = (values: number[]) => `${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)}`;
  const [without, withLockout] = [median(times.without), median(times.with)];
  const bound = 1.5 * without + LOCKOUT.seconds;
  process.stdout.write(
    `  median without ${without.toFixed(1)} s (${range(times.without)}), with the lockout ${withLockout.toFixed(1)} s (${range(times.with)}); ` +
      `ratio ${(withLockout / without).toFixed(2)}x, ${(withLockout - without).toFixed(1)} s more; ` +
      `goal at most 1.5x + ${LOCKOUT.seconds} s = ${bound.toFixed(1)} s: ${withLockout <= bound ? "met" : "missed"}; ` +
      (differences.length === 0 ? "every row's verdict the same\n" : `verdicts differ: ${differences.join("; ")}\n`),
  );
}
