/**
 * The scenarios of the suite as data: name, place, tags, rows and level. Read straight from
 * the feature files with cucumber's own Gherkin parser, so it sees what a run would see.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { generateMessages } from "@cucumber/gherkin";
import { IdGenerator, SourceMediaType } from "@cucumber/messages";
import { parse as parseTagExpression } from "@cucumber/tag-expressions";
import { type Level, readTags } from "./catalogue.ts";

export interface ScenarioInfo {
  name: string;
  /** `features/snapshots/chain.feature:12` (for an outline, the Examples row). */
  location: string;
  tags: string[];
  rows: string[];
  levels: Level[];
}

export function featureFiles(root: string): string[] {
  const dir = join(root, "features");
  return readdirSync(dir, { recursive: true, withFileTypes: false })
    .map(String)
    .filter((f) => f.endsWith(".feature"))
    .sort()
    .map((f) => join(dir, f));
}

export function loadScenarios(root: string): ScenarioInfo[] {
  const scenarios: ScenarioInfo[] = [];
  for (const file of featureFiles(root)) {
    const uri = relative(root, file);
    const envelopes = generateMessages(readFileSync(file, "utf8"), uri, SourceMediaType.TEXT_X_CUCUMBER_GHERKIN_PLAIN, {
      includeGherkinDocument: true,
      includePickles: true,
      newId: IdGenerator.incrementing(),
    });
    const lines = new Map<string, number>();
    for (const envelope of envelopes) {
      if (envelope.parseError) throw new Error(`${uri}: ${envelope.parseError.message}`);
      if (envelope.gherkinDocument) collectLines(envelope.gherkinDocument, lines);
      if (!envelope.pickle) continue;
      const tags = envelope.pickle.tags.map((t) => t.name);
      scenarios.push({
        name: envelope.pickle.name,
        location: `${uri}:${lines.get(envelope.pickle.astNodeIds.at(-1) ?? "") ?? 0}`,
        tags,
        ...readTags(tags),
      });
    }
  }
  return scenarios;
}

/** Maps every AST node id to its line, for scenario and Examples-row locations. */
export function collectLines(node: unknown, lines: Map<string, number>): void {
  if (node === null || typeof node !== "object") return;
  const record = node as { id?: unknown; location?: { line?: number } };
  if (typeof record.id === "string" && record.location?.line) lines.set(record.id, record.location.line);
  for (const value of Object.values(node)) collectLines(value, lines);
}

/** A feature tagged so runs after every other: its scenarios need the time the others take. */
export const RUNS_LAST_TAG = "@runs-last";

/** The feature files in the order a run takes them: by path, those tagged @runs-last at the end. */
export function runOrder(scenarios: readonly ScenarioInfo[]): string[] {
  const files = [...new Set(scenarios.map(fileOf))].sort();
  const last = new Set(scenarios.filter((s) => s.tags.includes(RUNS_LAST_TAG)).map(fileOf));
  return [...files.filter((f) => !last.has(f)), ...files.filter((f) => last.has(f))];
}

function fileOf(scenario: ScenarioInfo): string {
  return scenario.location.slice(0, scenario.location.lastIndexOf(":"));
}

/**
 * The scenarios a run with this tag expression takes, as cucumber chooses them (a run filters
 * by tags alone), read from the features already parsed instead of parsing them once more.
 */
export function plannedScenarios(scenarios: readonly ScenarioInfo[], tags: string | undefined): ScenarioInfo[] {
  if (!tags) return [...scenarios];
  const expression = parseTagExpression(tags);
  return scenarios.filter((s) => expression.evaluate(s.tags));
}

/** The rows of these scenarios, so that support code can prepare what only some scenarios need. */
export function rowsOf(scenarios: readonly ScenarioInfo[]): string[] {
  return [...new Set(scenarios.flatMap((s) => s.rows))].sort();
}
