/**
 * The scenarios of the suite as data: name, place, tags, rows and level. Read straight from
 * the feature files with cucumber's own Gherkin parser, so it sees what a run would see.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { generateMessages } from "@cucumber/gherkin";
import { IdGenerator, SourceMediaType } from "@cucumber/messages";
import { parse as parseTagExpression } from "@cucumber/tag-expressions";
import { type Level, readTags, type Side } from "./catalogue.ts";

export interface ScenarioInfo {
  name: string;
  /** `features/snapshots/chain.feature:12` (for an outline, the Examples row). */
  location: string;
  tags: string[];
  rows: string[];
  levels: Level[];
  /** It has the step that waits for the target's clock to pass a whole second (CLOCK_STEP). */
  waitsForClock: boolean;
  /**
   * Its steps, each row of a step's data table one more (a walk's table lists its stops): a
   * rough measure of how many requests it sends one after another.
   */
  length: number;
}

/** Where the features of the client rows are, inside `features/`; every other feature is the server's. */
export const CLIENT_FEATURES = "clients";

export function featureFiles(root: string, side: Side = "server"): string[] {
  const dir = join(root, "features");
  const ofClients = (f: string) => f.startsWith(`${CLIENT_FEATURES}/`);
  return readdirSync(dir, { recursive: true, withFileTypes: false })
    .map(String)
    .filter((f) => f.endsWith(".feature") && ofClients(f) === (side === "client"))
    .sort()
    .map((f) => join(dir, f));
}

export function loadScenarios(root: string, side: Side = "server"): ScenarioInfo[] {
  const scenarios: ScenarioInfo[] = [];
  for (const file of featureFiles(root, side)) {
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
        waitsForClock: envelope.pickle.steps.some((step) => step.text === CLOCK_STEP),
        length: envelope.pickle.steps.reduce((sum, step) => sum + 1 + (step.argument?.dataTable?.rows.length ?? 0), 0),
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

/**
 * Scenarios that wait for the target's clock to pass a whole second (HTTP dates have no finer
 * grain). One process running the scenarios one after another takes their features last, so
 * that a resource made before the first scenario has aged by then; parallel workers take them
 * first, so that the wait passes while the other workers run.
 */
export const CLOCK_STEP = "a second later, another client has updated the resource";

/**
 * The feature files in the order a run takes them: by path, those with scenarios that wait for
 * the clock last or first. Where scenarios run at once, the others follow by the length of
 * their longest scenario, longest first (then by path): a long chain of requests started late
 * would end the run alone, while the short ones fill in around it.
 */
export function runOrder(scenarios: readonly ScenarioInfo[], parallel: boolean): string[] {
  const files = [...new Set(scenarios.map(fileOf))].sort();
  const clock = new Set(scenarios.filter((s) => s.waitsForClock).map(fileOf));
  const waiting = files.filter((f) => clock.has(f));
  const others = files.filter((f) => !clock.has(f));
  if (!parallel) return [...others, ...waiting];
  const longest = new Map<string, number>();
  for (const s of scenarios) longest.set(fileOf(s), Math.max(longest.get(fileOf(s)) ?? 0, s.length));
  const byLength = (a: string, b: string) => (longest.get(b) ?? 0) - (longest.get(a) ?? 0);
  return [...waiting, ...others.sort(byLength)];
}

function fileOf(scenario: ScenarioInfo): string {
  return scenario.location.slice(0, scenario.location.lastIndexOf(":"));
}

/** How a scenario's requests name it (X-Sxd-Scenario): its rows and its name, in visible ASCII. */
export function scenarioLabel(rows: readonly string[], name: string): string {
  return `${rows.join(" ")}: ${name}`.replace(/[^\x20-\x7e]/g, "?").slice(0, 200);
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

/**
 * Where one process runs the scenarios and one that waits for the clock (CLOCK_STEP) is among
 * them: its label, for the resource made for it before the first scenario. Parallel workers
 * make none: the scenario runs first there, and every worker would make one for nothing.
 */
export function earlyResourceFor(planned: readonly ScenarioInfo[], parallel: boolean): string | undefined {
  const waiting = parallel ? undefined : planned.find((s) => s.waitsForClock);
  return waiting && scenarioLabel(waiting.rows, waiting.name);
}
