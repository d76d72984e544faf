/**
 * Every row has scenarios; every scenario names known rows at their level. The project's
 * tests fail on any problem found here, so no rule goes unchecked by accident.
 */

import type { Row } from "./catalogue.ts";
import type { ScenarioInfo } from "./scenarios.ts";

export function traceabilityProblems(rows: Row[], scenarios: ScenarioInfo[]): string[] {
  const problems: string[] = [];
  const known = new Map(rows.map((r) => [r.id, r]));
  for (const s of scenarios) {
    const where = `${s.location} "${s.name}"`;
    if (s.rows.length === 0)
      problems.push(
        `${where} names no row (tag it @SNAP-n, @DIG-n or @EXP-n; a client's @CDIG-n, @CEXP-n or @CSNAP-n)`,
      );
    if (s.levels.length !== 1) problems.push(`${where} needs exactly one level tag (@must, @should or @may)`);
    for (const id of s.rows) {
      const row = known.get(id);
      if (!row) problems.push(`${where} names ${id}, which is not in the catalogue`);
      else if (s.levels.length === 1 && row.level !== s.levels[0] && !(s.levels[0] === "should" && row.should)) {
        problems.push(`${where} is tagged @${s.levels[0]} but ${id} is a ${row.level.toUpperCase()} row`);
      }
    }
  }
  for (const row of rows) {
    if (!scenarios.some((s) => s.rows.includes(row.id))) problems.push(`${row.id} has no scenario`);
  }
  return problems;
}

/**
 * The client side, while sxd test-client grows task by task: its scenarios are held to the
 * same rules, and the client rows no scenario checks yet are listed, not failed.
 */
export function clientTraceability(
  rows: Row[],
  scenarios: ScenarioInfo[],
): { problems: string[]; unchecked: string[] } {
  const unchecked = rows.filter((row) => !scenarios.some((s) => s.rows.includes(row.id))).map((row) => row.id);
  const problems = traceabilityProblems(rows, scenarios).filter(
    (p) => !unchecked.some((id) => p === `${id} has no scenario`),
  );
  return { problems, unchecked };
}

/** The row matrix: each row, its level and the scenarios that check it. */
export function rowMatrix(rows: Row[], scenarios: ScenarioInfo[]): string {
  const lines: string[] = [];
  for (const row of rows) {
    const checking = scenarios.filter((s) => s.rows.includes(row.id));
    lines.push(`${row.id.padEnd(8)} ${row.level.toUpperCase().padEnd(6)} ${checking.length} scenario(s)  ${row.rule}`);
    for (const s of checking) lines.push(`${"".padEnd(16)}- ${s.name} (${s.location})`);
  }
  return `${lines.join("\n")}\n`;
}
