/**
 * conformance.json as data: the one document every report is built from (report/) and the
 * docs site reads other servers' results from (docs/). Below both, so neither imports the other.
 */
import { readFileSync } from "node:fs";
import type { PeerSide } from "../description/peer.ts";
import type { Side } from "../judging/catalogue.ts";
import type { Overall, RepeatCounts, Repeated, RowVerdict } from "../judging/verdicts.ts";
import type { ClientEvidence } from "./client-evidence.ts";
import type { BundledReference, DescribedKeys } from "./described-target.ts";
import type { Exchange } from "./exchange.ts";

export interface ConformanceDocument {
  /** sxd's version, and the catalogue's (a hash of catalogue/rows.json; absent in older documents). */
  suite: { name: string; version: string; catalogue?: string };
  target: {
    baseUrl: string;
    contactsUrl?: string;
    messagingUrl?: string;
    /** The description's keys the run read (described-target.ts), secrets masked; absent in older documents and client runs. */
    described?: DescribedKeys;
    /** The run started the bundled reference (no URL given): which one; its URLs are new in every run. */
    bundled?: BundledReference;
  };
  /** The server sxd played itself (--peer); its URL is the target's of that side. */
  peer?: PeerSide;
  date: string;
  strict: boolean;
  overall: Overall;
  /** Set when a signal stopped the run: the scenarios not started are not run. */
  interrupted?: string;
  warnings?: string[];
  /**
   * A client run (`sxd test-client`): the command and each run of a task, with what it sent; in a
   * group of repeats, the runs of the repeats some row's evidence comes from, each with its `repeat`.
   */
  client?: ClientEvidence;
  /**
   * The repeats the run was (`--repeat N`): how many were asked, and how many started (fewer
   * where the deadline, the breaker or a signal stopped the group). A run without --repeat is a
   * group of one. Absent in the documents of an sxd without --repeat.
   */
  repeated?: Repeated;
  rows: Array<{
    id: string;
    level: string;
    rule: string;
    /** The worst verdict any repeat gave the row (harness/judging/repeats.ts). */
    verdict: RowVerdict;
    /** Why, as the repeat of `evidenceRepeat` said it: the first failure's message, or why the row was not run. */
    reason?: string;
    /** How many repeats gave the row each verdict, `{ "failed": 3, "passed": 17 }`; they add up to `repeated.ran`. */
    repeats?: RepeatCounts;
    /**
     * The repeats that judged the row disagreed on its rule: broken (failed, expected failure) in
     * some, warned or held (passed, fixed, not applicable) in others. "not run" counts for neither.
     */
    intermittent?: boolean;
    /** The repeat (1 first) whose reason, scenarios and exchanges the row shows: the first that gave it its verdict. */
    evidenceRepeat?: number;
    scenarios: Array<{
      name: string;
      location: string;
      status: string;
      message?: string;
      /** What the scenario saw that its rule leaves open or sxd staged (outcomes.ts OBSERVED_MEDIA_TYPE). */
      observed?: string[];
      exchanges: Exchange[];
    }>;
  }>;
}

export function readConformance(path: string): ConformanceDocument {
  const doc = JSON.parse(readFileSync(path, "utf8")) as ConformanceDocument;
  const whole =
    doc !== null &&
    typeof doc === "object" &&
    typeof doc.target?.baseUrl === "string" &&
    typeof doc.overall === "string" &&
    Array.isArray(doc.rows) &&
    doc.rows.every((row) => typeof row?.id === "string" && Array.isArray(row.scenarios));
  if (!whole) throw new Error(`${path} is not a conformance.json of sxd`);
  return doc;
}

/** A client run's target, as harness/client/run.ts names it: `client: <command>` (or where it was recorded). */
export const CLIENT_TARGET = "client: ";

/** Whom a run judged: a client (`sxd test-client`) or a server (`sxd test`). */
export function documentSide(doc: ConformanceDocument): Side {
  return doc.client !== undefined || doc.target.baseUrl.startsWith(CLIENT_TARGET) ? "client" : "server";
}

/** What a run judged, for a column heading: the client's command, or the server's base URL. */
export function documentSubject(doc: ConformanceDocument): string {
  if (documentSide(doc) === "server") return doc.target.baseUrl;
  return doc.client?.command ?? doc.client?.recorded ?? doc.target.baseUrl.slice(CLIENT_TARGET.length);
}

/** A run's verdict on one row, with its reason. */
export interface Cell {
  verdict: string;
  reason?: string;
}

/** A run's verdict on a row; undefined where the run judges the other side; "not run" where it left the row out. */
export function verdictOn(doc: ConformanceDocument, id: string, side: Side): Cell | undefined {
  if (documentSide(doc) !== side) return undefined;
  const judged = doc.rows.find((r) => r.id === id);
  if (!judged || judged.scenarios.length === 0) return { verdict: "not run", reason: "not part of this run" };
  return { verdict: judged.verdict, reason: judged.reason };
}
