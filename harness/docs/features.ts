/**
 * The features as a reader sees them: each feature's description and Background, each
 * scenario's steps as written, a Scenario Outline once with its Examples tables. Read with
 * cucumber's own Gherkin parser (as harness/judging/scenarios.ts does), so the site shows what runs.
 */
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { AstBuilder, GherkinClassicTokenMatcher, Parser } from "@cucumber/gherkin";
import { type Background, IdGenerator, type Scenario, type Step } from "@cucumber/messages";
import { type Level, readTags, type Side } from "../judging/catalogue.ts";
import { featureFiles } from "../judging/scenarios.ts";

export interface DocStep {
  keyword: string;
  text: string;
  table?: string[][];
  docString?: string;
}

export interface DocExamples {
  name: string;
  header: string[];
  /** Each Examples row with its run location (`features/x.feature:31`), as conformance.json names it. */
  rows: Array<{ cells: string[]; location: string }>;
}

export interface DocScenario {
  name: string;
  /** "Scenario" or "Scenario Outline", as written. */
  keyword: string;
  /** Where the scenario starts: `features/x.feature:12`. */
  location: string;
  tags: string[];
  rows: string[];
  levels: Level[];
  description: string;
  steps: DocStep[];
  examples: DocExamples[];
}

export interface DocFeature {
  uri: string;
  name: string;
  description: string;
  background: DocStep[];
  scenarios: DocScenario[];
}

/** The features of one side: the server's where none is named, or the client's (`features/clients/`). */
export function loadDocFeatures(root: string, side: Side = "server"): DocFeature[] {
  return featureFiles(root, side).map((file) => parseFeature(relative(root, file), readFileSync(file, "utf8")));
}

export function parseFeature(uri: string, source: string): DocFeature {
  const parser = new Parser(new AstBuilder(IdGenerator.incrementing()), new GherkinClassicTokenMatcher());
  let document: ReturnType<typeof parser.parse>;
  try {
    document = parser.parse(source);
  } catch (error) {
    throw new Error(`${uri}: ${(error as Error).message}`);
  }
  const feature = document.feature;
  if (!feature) throw new Error(`${uri}: no Feature`);
  const featureTags = feature.tags.map((t) => t.name);
  const background: DocStep[] = [];
  const scenarios: DocScenario[] = [];
  const children = feature.children.flatMap((child) => (child.rule ? child.rule.children : [child]));
  for (const child of children) {
    if (child.background) background.push(...docSteps(child.background));
    if (child.scenario) scenarios.push(docScenario(uri, featureTags, child.scenario));
  }
  return { uri, name: feature.name, description: plain(feature.description), background, scenarios };
}

function docScenario(uri: string, featureTags: string[], scenario: Scenario): DocScenario {
  const tags = [
    ...new Set([
      ...featureTags,
      ...scenario.tags.map((t) => t.name),
      ...scenario.examples.flatMap((e) => e.tags.map((t) => t.name)),
    ]),
  ];
  return {
    name: scenario.name,
    keyword: scenario.keyword,
    location: `${uri}:${scenario.location.line}`,
    tags,
    ...readTags(tags),
    description: plain(scenario.description),
    steps: docSteps(scenario),
    examples: scenario.examples.map((examples) => ({
      name: examples.name,
      header: examples.tableHeader?.cells.map((c) => c.value) ?? [],
      rows: examples.tableBody.map((row) => ({
        cells: row.cells.map((c) => c.value),
        location: `${uri}:${row.location.line}`,
      })),
    })),
  };
}

function docSteps(node: Background | Scenario): DocStep[] {
  return node.steps.map((step: Step) => ({
    keyword: step.keyword.trim(),
    text: step.text,
    table: step.dataTable?.rows.map((row) => row.cells.map((c) => c.value)),
    docString: step.docString?.content,
  }));
}

/** The locations a run reports for this scenario: one per Examples row, or the scenario's own. */
export function runLocations(scenario: DocScenario): string[] {
  const rows = scenario.examples.flatMap((e) => e.rows.map((r) => r.location));
  return rows.length > 0 ? rows : [scenario.location];
}

/** A Gherkin description without the indentation it has in the file. */
function plain(description: string): string {
  return description
    .split("\n")
    .map((line) => line.trim())
    .join("\n")
    .trim();
}
