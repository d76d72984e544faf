/**
 * The exchanges a run against the bundled reference recorded, per scenario run (an outline's
 * Examples row counts as one), with every secret masked. A scenario run that recorded no
 * exchange is a problem the site build reports: a page without a real exchange shows nothing.
 */

import type { ConformanceDocument } from "../evidence/conformance-document.ts";
import type { Exchange } from "../evidence/exchange.ts";
import { type DocFeature, runLocations } from "./features.ts";

export interface RecordedRun {
  name: string;
  /** The scenario's status on the reference: passed, or why not (e.g. not applicable). */
  status: string;
  message?: string;
  exchanges: Exchange[];
}

export const MASK = "•••";

/** Run location (`features/x.feature:31`) → what that scenario run did on the reference. */
export function recordedRuns(doc: ConformanceDocument, secrets: readonly string[]): Map<string, RecordedRun> {
  const runs = new Map<string, RecordedRun>();
  // A scenario checking several rows is listed under each of them with the same exchanges.
  for (const row of doc.rows) {
    for (const s of row.scenarios) {
      if (runs.has(s.location)) continue;
      runs.set(s.location, {
        name: s.name,
        status: s.status,
        message: s.message === undefined ? undefined : mask(s.message, secrets),
        exchanges: s.exchanges.map((e) => maskExchange(e, secrets)),
      });
    }
  }
  return runs;
}

/** Every scenario run of the features that recorded no exchange, or did not run at all. */
export function missingExchanges(features: DocFeature[], runs: Map<string, RecordedRun>): string[] {
  return features.flatMap((feature) =>
    feature.scenarios.flatMap((scenario) =>
      runLocations(scenario).flatMap((location) => {
        const run = runs.get(location);
        if (!run) return [`${location} (${scenario.name}): did not run against the reference`];
        if (run.exchanges.length === 0) return [`${location} (${scenario.name}): recorded no exchange`];
        return [];
      }),
    ),
  );
}

function maskExchange(exchange: Exchange, secrets: readonly string[]): Exchange {
  // Every string of the exchange, headers and bodies alike, goes through the mask.
  return JSON.parse(JSON.stringify(exchange), (_key, value) =>
    typeof value === "string" ? mask(value, secrets) : value,
  ) as Exchange;
}

function mask(text: string, secrets: readonly string[]): string {
  return secrets.filter((s) => s.length > 0).reduce((kept, secret) => kept.split(secret).join(MASK), text);
}
