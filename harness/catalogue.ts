/** The row catalogue (`catalogue/rows.json`): every rule of the spec with its ID and level. */
import { readFileSync } from "node:fs";
import { packageFile } from "./package.ts";

export type Level = "must" | "should" | "may";

export interface Row {
  id: string;
  level: Level;
  rule: string;
  /**
   * For a MUST row whose spec text states only the outcome: the RFC's choice. Scenarios
   * checking it are tagged @should and warn rather than fail.
   */
  should?: string;
}

const ROW_TAG = /^@((?:DIG|EXP|SNAP)-\d+)$/;
const LEVEL_TAGS: Record<string, Level> = { "@must": "must", "@should": "should", "@may": "may" };

/** What a scenario's tags say: the rows it checks (`@SNAP-3`) and its levels (`@must`, …). */
export function readTags(tags: readonly string[]): { rows: string[]; levels: Level[] } {
  return {
    rows: tags.flatMap((tag) => ROW_TAG.exec(tag)?.[1] ?? []),
    levels: tags.flatMap((tag) => LEVEL_TAGS[tag] ?? []),
  };
}

let cached: Row[] | undefined;

export function loadRows(): Row[] {
  cached ??= (JSON.parse(readFileSync(packageFile("catalogue/rows.json"), "utf8")) as { rows: Row[] }).rows;
  return cached;
}

export function rowsById(): Map<string, Row> {
  return new Map(loadRows().map((row) => [row.id, row]));
}
