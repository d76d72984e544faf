// npm run bench, the gateway section: the whole suite (the default samples of the security rows)
// behind a rate-limiting gateway, a token bucket of 10 and of 30 requests a second (burst 10, 429
// without Retry-After), with the defaults: sxd finds the pace itself. Beside the same gateway
// without a limit. Prints the wall time against the least the limit allows (the requests that got
// through / the rate), the share of requests refused and the pace sxd settled on. The goal:
// conformant, at most a quarter refused, within 1.3 times the least. Nothing is asserted.
import { loadavg } from "node:os";
import { DEFAULT_SECURITY_SAMPLES } from "../../harness/world-parameters.ts";
import { type GatewayRules, gatedReference, runBehind } from "../../test/support/gateway.ts";

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
