/**
 * The row catalogue (`catalogue/rows.json`): every rule of the spec with its ID and level, and
 * apart from them the LIM cases, measurements with no level that no verdict reads.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { packageFile } from "../package.ts";

export type Level = "must" | "should" | "may";

/** Whom a row binds: the server sxd sends to (`sxd test`), or the client that sends to sxd (`sxd test-client`). */
export type Side = "server" | "client";

export interface Row {
  id: string;
  level: Level;
  rule: string;
  /**
   * For a MUST row whose spec text states only the outcome: the RFC's choice. Scenarios
   * checking it are tagged @should and warn rather than fail.
   */
  should?: string;
  /** Absent: a server row. A run considers the rows of its own side only. */
  side?: Side;
  /**
   * The export server the row binds alone, where one does: judged in a run where sxd plays
   * that server itself (--peer), it would credit sxd's server to the team's.
   */
  bindsOnly?: "contacts" | "messaging";
}

const ROW_TAG = /^@(C?(?:DIG|EXP|SNAP)-\d+)$/;
const LEVEL_TAGS: Record<string, Level> = { "@must": "must", "@should": "should", "@may": "may" };

/** What a scenario's tags say: the rows it checks (a tag of a row's ID) and its levels (`@must`, …). */
export function readTags(tags: readonly string[]): { rows: string[]; levels: Level[] } {
  return {
    rows: tags.flatMap((tag) => ROW_TAG.exec(tag)?.[1] ?? []),
    levels: tags.flatMap((tag) => LEVEL_TAGS[tag] ?? []),
  };
}

/** A LIM case as the catalogue says it: what it measures and at which sizes (`sxd limits`). */
export interface LimitRow {
  id: string;
  measures: string;
  sizes: string;
}

let cached: { rows: Row[]; limits: LimitRow[]; version: string } | undefined;

function catalogue(): { rows: Row[]; limits: LimitRow[]; version: string } {
  if (cached === undefined) {
    const text = readFileSync(packageFile("catalogue/rows.json"), "utf8");
    const { rows, limits } = JSON.parse(text) as { rows: Row[]; limits: LimitRow[] };
    cached = { rows, limits, version: createHash("sha256").update(text).digest("hex").slice(0, 12) };
  }
  return cached;
}

/** The catalogue's version: a hash of catalogue/rows.json, which a run's conformance.json names. */
export function catalogueVersion(): string {
  return catalogue().version;
}

/** The rows of one side; the server's where none is named, as every server run reads them. */
export function loadRows(side: Side = "server"): Row[] {
  return loadAllRows().filter((row) => sideOf(row) === side);
}

/** Every row of the catalogue, both sides. */
export function loadAllRows(): Row[] {
  return catalogue().rows;
}

/** The LIM cases, LIM-1 first. */
export function loadLimitRows(): LimitRow[] {
  return catalogue().limits;
}

export function sideOf(row: Row): Side {
  return row.side ?? "server";
}

export function rowsById(side: Side = "server"): Map<string, Row> {
  return new Map(loadRows(side).map((row) => [row.id, row]));
}
