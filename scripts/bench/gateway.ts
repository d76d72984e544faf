// npm run bench, the gateway section: the whole suite behind a rate-limiting gateway (a token
// bucket of 25 requests per second, burst 10, 429 without Retry-After), with the defaults and
// with --rate 20, beside the same gateway without a limit. Prints wall times, the requests the
// gateway refused and sxd's waits; asserts nothing: timing is for people.
import { type GatewayRules, gatedReference, runBehind } from "../../test/support/gateway.ts";

const LIMIT = { perSecond: 25, burst: 10 };

const RUNS: Array<{ label: string; rules: GatewayRules; rate?: number }> = [
  { label: "no limit", rules: { perSecond: Number.POSITIVE_INFINITY, burst: Number.POSITIVE_INFINITY } },
  { label: "limit 25/s, defaults", rules: LIMIT },
  { label: "limit 25/s, --rate 20", rules: LIMIT, rate: 20 },
];

export async function benchGateway(): Promise<void> {
  process.stdout.write("\nthe whole suite behind a gateway (token bucket, burst 10, --parallel 2):\n");
  for (const { label, rules, rate } of RUNS) {
    const gateway = await gatedReference(rules);
    try {
      const run = await runBehind(gateway, { rate });
      const waits = run.output.match(/sxd waited ([\d.]+) s in all/)?.[1] ?? "0";
      process.stdout.write(
        `  ${label.padEnd(24)} ${run.seconds.toFixed(1).padStart(6)} s  ${run.judgement.overall.padEnd(14)} ` +
          `${gateway.forwarded} requests, ${gateway.refused} refused, waits ${waits} s\n`,
      );
    } finally {
      await gateway.close();
    }
  }
}
