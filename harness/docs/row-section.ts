/**
 * One rule on its behaviour's page: ID, level, rule text, a stable anchor and permalink, then
 * the scenarios that check it in plain words, each with a recorded run: a server row's, what
 * sxd sent to the bundled reference; a client row's, what the example client sent to sxd.
 */
import { escapeXml as escapeHtml } from "../../lib/xml.ts";
import { exchangeHtml } from "../evidence/exchange-html.ts";
import type { LimitsDocument } from "../evidence/limits-document.ts";
import { type LimitRow, type Row, type Side, sideOf } from "../judging/catalogue.ts";
import { type DocFeature, type DocScenario, type DocStep, runLocations } from "./features.ts";
import { type InteropResults, rowInteropHtml } from "./interop-results.ts";
import type { RecordedRun } from "./recorded.ts";
import { type RunResults, rowResultsHtml } from "./results.ts";

export interface SiteInput {
  /** The server's rows, then the client's. */
  rows: Row[];
  /** The features of both sides. */
  features: DocFeature[];
  /** Run location → its recorded run, the server's scenarios and the client's alike. */
  recorded: Map<string, RecordedRun>;
  /** Other runs' results (--results), servers' and clients'. */
  results: RunResults[];
  /** Interop runs (--results interop.json): the implementations' standing and the pairs under each row. */
  interop?: InteropResults[];
  /** The LIM cases of the catalogue, and what sxd limits measured of them (the bundled reference, or --limits). */
  limits?: { rows: LimitRow[]; measured: LimitsDocument | undefined };
}

/** Who made a recorded run, by the side of the row it shows under. */
interface RecordedBy {
  title: string;
  /** Where its status was reached, after the title of a run that did not pass. */
  on: string;
}

const RECORDED_BY: Record<Side, RecordedBy> = {
  server: { title: "The exchange with the bundled reference", on: "on the reference" },
  client: { title: "What the example client sent to sxd's servers", on: "its grade" },
};

/** The words a search matches a row by: its rule, its should part, its scenarios' names and steps. */
export function searchText(row: Row, features: DocFeature[]): string {
  const steps = scenariosOf(row.id, features).flatMap(({ scenario }) => [
    scenario.name,
    ...scenario.steps.map((s) => `${s.keyword} ${s.text}`),
  ]);
  return [row.id, row.rule, row.should ?? "", ...steps].join(" ").toLowerCase();
}

export function scenariosOf(
  rowId: string,
  features: DocFeature[],
): Array<{ feature: DocFeature; scenario: DocScenario }> {
  return features.flatMap((feature) =>
    feature.scenarios.filter((s) => s.rows.includes(rowId)).map((scenario) => ({ feature, scenario })),
  );
}

export function rowSectionHtml(row: Row, behaviour: string, input: SiteInput): string {
  const should = row.should
    ? `<p class="should"><span class="level should">SHOULD</span> part: ${escapeHtml(row.should)}</p>`
    : "";
  const byFeature = new Map<DocFeature, DocScenario[]>();
  for (const { feature, scenario } of scenariosOf(row.id, input.features)) {
    byFeature.set(feature, [...(byFeature.get(feature) ?? []), scenario]);
  }
  const features = [...byFeature]
    .map(([feature, scenarios]) => featureHtml(feature, scenarios, RECORDED_BY[sideOf(row)], input))
    .join("\n");
  return `<section class="row filterable" id="${row.id}" aria-labelledby="${row.id}-title" data-level="${row.level}" data-behaviour="${behaviour}" data-search="${escapeHtml(searchText(row, input.features))}">
<h2 id="${row.id}-title"><a class="permalink" href="#${row.id}">${row.id}</a> <span class="level ${row.level}">${row.level.toUpperCase()}</span></h2>
<p class="rule">${escapeHtml(row.rule)}</p>
${should}${rowResultsHtml(row, input.results)}${rowInteropHtml(row, behaviour, input.interop ?? [])}
<h3>How sxd checks it</h3>
${features}
</section>`;
}

function featureHtml(feature: DocFeature, scenarios: DocScenario[], recordedBy: RecordedBy, input: SiteInput): string {
  const background =
    feature.background.length > 0
      ? `<div class="background"><p>Every scenario of this feature starts with:</p>${stepsHtml(feature.background)}</div>`
      : "";
  return `<div class="feature">
<h4>Feature: ${escapeHtml(feature.name)} <small>(${escapeHtml(feature.uri)})</small></h4>
${paragraphs(feature.description)}${background}
${scenarios.map((s) => scenarioHtml(s, recordedBy, input)).join("\n")}
</div>`;
}

function scenarioHtml(scenario: DocScenario, recordedBy: RecordedBy, input: SiteInput): string {
  const tags = scenario.tags.map((t) => `<code>${escapeHtml(t)}</code>`).join(" ");
  const examples = scenario.examples
    .map((e) =>
      tableHtml(
        e.header,
        e.rows.map((r) => r.cells),
        `Examples${e.name ? `: ${e.name}` : ""}`,
      ),
    )
    .join("");
  return `<article class="scenario">
<h5>${escapeHtml(scenario.keyword)}: ${escapeHtml(scenario.name)}</h5>
<p class="tags">${tags} <small>${escapeHtml(scenario.location)}</small></p>
${paragraphs(scenario.description)}${stepsHtml(scenario.steps)}${examples}
${recordedHtml(scenario, recordedBy, input.recorded)}
</article>`;
}

function recordedHtml(scenario: DocScenario, recordedBy: RecordedBy, recorded: Map<string, RecordedRun>): string {
  const outline = scenario.examples.length > 0;
  return runLocations(scenario)
    .map((location, index) => {
      const run = recorded.get(location);
      if (!run) return "";
      const example = outline ? `, example ${index + 1} (${escapeHtml(location)})` : "";
      const status =
        run.status === "passed"
          ? ""
          : ` — ${recordedBy.on}: ${escapeHtml(run.status)}${run.message ? `: ${escapeHtml(run.message)}` : ""}`;
      return `<details class="recorded" data-location="${escapeHtml(location)}">
<summary>${recordedBy.title}${example}: ${run.exchanges.length} request${run.exchanges.length === 1 ? "" : "s"}${status}</summary>
${run.exchanges.map(exchangeHtml).join("\n")}
</details>`;
    })
    .join("\n");
}

function stepsHtml(steps: DocStep[]): string {
  const items = steps
    .map((step) => {
      const table = step.table ? tableHtml(step.table[0] ?? [], step.table.slice(1)) : "";
      const doc = step.docString === undefined ? "" : `<pre>${escapeHtml(step.docString)}</pre>`;
      return `<li><b>${escapeHtml(step.keyword)}</b> ${escapeHtml(step.text)}${table}${doc}</li>`;
    })
    .join("");
  return `<ol class="steps">${items}</ol>`;
}

function tableHtml(header: string[], rows: string[][], caption?: string): string {
  const head = header.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join("");
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join("")}</tr>`).join("");
  return `<table class="examples">${caption ? `<caption>${escapeHtml(caption)}</caption>` : ""}<tr>${head}</tr>${body}</table>`;
}

function paragraphs(text: string): string {
  return text
    .split(/\n\s*\n/)
    .filter((p) => p.trim().length > 0)
    .map((p) => `<p>${escapeHtml(p.replace(/\n/g, " "))}</p>`)
    .join("");
}
