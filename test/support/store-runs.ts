/**
 * Documents of runs as sxd writes them, made small for the store's tests and its bench: a
 * conformance.json whose rows have the verdicts given, a limits.json of one case, an
 * interop.json of cells. The real runs' documents are tried in test/history*.test.ts.
 */
import type { ConformanceDocument } from "../../harness/evidence/conformance-document.ts";
import type { InteropCell, InteropDocument, OwnVerdict } from "../../harness/evidence/interop-document.ts";
import type { LimitsDocument } from "../../harness/evidence/limits-document.ts";
import type { RunDocument } from "../../harness/store/records.ts";

/** A run's time: `n` hours after a fixed start, so runs sort in the order they are made. */
export function hour(n: number): string {
  return new Date(Date.UTC(2026, 0, 1) + n * 3_600_000).toISOString();
}

export function conformanceRun(
  verdicts: Record<string, string>,
  options: { at?: number; baseUrl?: string; repeats?: Record<string, Record<string, number>> } = {},
): RunDocument {
  const doc: ConformanceDocument = {
    suite: { name: "sxd", version: "0.1.0" },
    target: { baseUrl: options.baseUrl ?? "http://server.test:8080" },
    date: hour((options.at ?? 0) + 0.1),
    strict: false,
    overall: Object.values(verdicts).includes("failed") ? "not conformant" : "conformant",
    rows: Object.entries(verdicts).map(([id, verdict]) => {
      const repeats = options.repeats?.[id];
      return {
        id,
        level: "must",
        rule: `the rule of ${id}`,
        verdict: verdict as ConformanceDocument["rows"][number]["verdict"],
        ...(verdict === "passed" ? {} : { reason: `${id} ${verdict}` }),
        ...(repeats ? { repeats, intermittent: Object.keys(repeats).length > 1 } : {}),
        scenarios: [
          {
            name: `${id} scenario`,
            location: "features/x.feature:1",
            status: verdict === "passed" ? "passed" : "failed",
            ...(verdict === "passed" ? {} : { message: "expected 200, got 500" }),
            exchanges: [
              {
                method: "GET",
                url: `${options.baseUrl ?? "http://server.test:8080"}/entries/1`,
                requestHeaders: {},
                response: { status: verdict === "passed" ? 200 : 500, headers: {}, body: "x".repeat(5000) },
                startedAt: hour(options.at ?? 0),
                durationMs: 3,
              },
            ],
          },
        ],
      };
    }),
  };
  return { text: JSON.stringify(doc, null, 2), document: { kind: "conformance", doc } };
}

/** A limits run of one case (LIM-1), one series whose cost at each size is `cost(size)` give or take a little. */
export function limitsRun(cost: (size: number) => number, at = 0, target = "http://server.test:8080"): RunDocument {
  const sizes = [10, 100, 1000];
  const doc: LimitsDocument = {
    tool: "sxd limits",
    version: "0.1.0",
    target,
    startedAt: hour(at),
    elapsedMs: 60_000,
    repeats: 5,
    deadlineSeconds: 600,
    memory: "not read",
    cases: [
      {
        id: "LIM-1",
        measures: "GET of the newest version",
        size: { name: "versions", unit: "versions" },
        sizes,
        status: "measured",
        growth: "flat",
        lowered: [],
        series: [
          {
            name: "GET",
            unit: "ms",
            growth: "flat",
            points: sizes.map((size) => {
              const c = cost(size);
              const repeats = [c * 0.98, c, c * 1.01, c * 1.02, c * 1.05];
              return { size, median: c * 1.01, spread: c * 0.04, repeats };
            }),
          },
        ],
      },
    ],
  };
  return { text: JSON.stringify(doc, null, 2), document: { kind: "limits", doc } };
}

/** An interop run whose cells have the results given, keyed `client/server/task`. */
export function interopRun(results: Record<string, InteropCell["result"]>, at = 0): RunDocument {
  const cells: InteropCell[] = Object.entries(results).map(([key, result]) => {
    const [client = "", server = "", task = "digest-get"] = key.split("/");
    return {
      client,
      server,
      task: task as InteropCell["task"],
      result,
      blame: result === "failed" ? "server" : null,
      why: result === "failed" ? "the server refused the right answer" : "exit 0",
      rows: { client: [], server: [] },
      alsoBroken: { client: [], server: [] },
      evidence: `cells/${client}-${server}-${task}`,
    };
  });
  const never: OwnVerdict = { source: "computed", exitCode: 0, verdict: "conformant", failedRows: [], warnedRows: [] };
  const doc: InteropDocument = {
    kind: "sxd-interop",
    version: 1,
    startedAt: hour(at),
    finishedAt: hour(at + 0.2),
    shard: { index: 1, count: 1 },
    tasks: ["digest-get"],
    servers: [...new Set(cells.map((c) => c.server))].map((name) => ({ name, urls: {}, tasks: [], verdict: never })),
    clients: [...new Set(cells.map((c) => c.client))].map((name) => ({ name, command: name, verdict: never })),
    cells,
  };
  return { text: JSON.stringify(doc, null, 2), document: { kind: "interop", doc } };
}

export const NO_PROVENANCE = { label: null, ref: null, jobUrl: null, folder: null };

/**
 * The node arguments that run test/fixtures/store-writer with `args`: its JavaScript in the
 * tests' own build (scripts/test-tree.mjs), else its TypeScript through tsx.
 */
export function storeWriterArgs(args: readonly string[]): string[] {
  const compiled = import.meta.url.endsWith(".js");
  const writer = new URL(`../fixtures/store-writer.${compiled ? "js" : "ts"}`, import.meta.url).pathname;
  return [...(compiled ? [] : ["--import", "tsx"]), writer, ...args];
}
