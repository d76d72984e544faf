/**
 * The spec as a site: an index of every rule and one page per behaviour, the server's and then
 * the client's, each rule with its scenarios and a real exchange, a page of the LIM cases with
 * what sxd limits measured, plus the style sheet and the filter script. Pure: the caller gathers the inputs (harness/docs/*) and writes the files.
 */
import { readFileSync } from "node:fs";
import { escapeXml as escapeHtml } from "../../lib/xml.ts";
import { CHART_CSS } from "../evidence/limits-chart.ts";
import { BEHAVIOURS, type Behaviour, behaviourOf } from "../evidence/presentation.ts";
import { interopScoresHtml } from "./interop-results.ts";
import { limitsPageBody } from "./limits.ts";
import { pageHtml } from "./page.ts";
import { indexCellHtml, runHeading } from "./results.ts";
import { rowSectionHtml, type SiteInput, searchText } from "./row-section.ts";

export type { SiteInput } from "./row-section.ts";

/** File name → content, every link between them relative, so the folder opens from disk. */
export function buildSite(input: SiteInput): Map<string, string> {
  const files = new Map<string, string>();
  files.set("index.html", indexHtml(input));
  for (const behaviour of BEHAVIOURS) {
    const rows = input.rows.filter((row) => behaviourOf(row.id) === behaviour);
    const body = [
      intro(behaviour),
      interopScoresHtml(input.interop ?? [], behaviour.slug),
      ...rows.map((row) => rowSectionHtml(row, behaviour.slug, input)),
    ].join("\n");
    files.set(
      `${behaviour.slug}.html`,
      pageHtml({ title: behaviour.title, current: behaviour.slug, withBehaviourFilter: false, body }),
    );
  }
  files.set(
    "lim-cases.html",
    pageHtml({
      title: "Limits, measured",
      current: "lim-cases",
      withBehaviourFilter: false,
      withFilters: false,
      body: limitsPageBody(input.limits?.rows ?? [], input.limits?.measured),
    }),
  );
  files.set("site.css", `${asset("site.css")}\n${CHART_CSS}\n`);
  files.set("site.js", asset("browser.js"));
  return files;
}

function indexHtml(input: SiteInput): string {
  const runColumns = input.results.map((run) => `<th scope="col">${runHeading(run)}</th>`).join("");
  const lines = input.rows
    .map((row) => {
      const behaviour = behaviourOf(row.id);
      const cells = input.results.map((run) => indexCellHtml(run, row)).join("");
      return `<tr class="filterable" data-level="${row.level}" data-behaviour="${behaviour.slug}" data-search="${escapeHtml(searchText(row, input.features))}">
<th scope="row"><a href="${behaviour.slug}.html#${row.id}">${row.id}</a></th><td><span class="level ${row.level}">${row.level.toUpperCase()}</span></td><td>${escapeHtml(behaviour.title)}</td><td>${escapeHtml(row.rule)}</td>${cells}</tr>`;
    })
    .join("\n");
  const body = `<p>Every rule of the interface, numbered, with its level: <b>MUST</b> (the spec states it), <b>SHOULD</b>
(the choice the HTTP and Digest RFCs lead to where the spec leaves it open) and <b>MAY</b> (an option a server
or client may take). The server's rules come first, then the client's (CDIG, CEXP, CSNAP). Each rule's page
shows the scenarios sxd runs to check it, in plain words, and a real exchange: for a server rule, what sxd
sent to its bundled reference server; for a client rule, what the example client sent to sxd's servers.${input.results.length > 0 ? " The last columns say how the servers and clients whose reports were given fare; a dash where a run judged the other side." : ""}</p>
${interopIntro(input)}
<table class="index"><caption>The rules</caption>
<tr><th scope="col">row</th><th scope="col">level</th><th scope="col">behaviour</th><th scope="col">rule</th>${runColumns}</tr>
${lines}
</table>`;
  return pageHtml({ title: "sxd: the interface, rule by rule", current: "index", withBehaviourFilter: true, body });
}

/** The interop runs given: what they show, and their scores per behaviour. */
function interopIntro(input: SiteInput): string {
  const runs = input.interop ?? [];
  if (runs.length === 0) return "";
  return `<p>The interop run${runs.length === 1 ? "" : "s"} given (<code>sxd interop</code>, every client against every server) add, under each rule,
where each implementation stands by its own verdict and the pairs whose failed cells broke the rule.</p>
${interopScoresHtml(runs)}`;
}

/** A client page opens by saying whom its rules bind and where its exchanges come from. */
function intro(behaviour: Behaviour): string {
  if (behaviour.side === "server") return "";
  return `<p class="intro">These rules bind a client of the interface. <code>sxd test-client</code> grades a client by
what it sends to sxd's own servers, never by reading its code. Under each scenario is what the example client
(<code>examples/clients/node</code>) sent for its task, with sxd's replies.</p>`;
}

function asset(name: string): string {
  return readFileSync(new URL(`./${name}`, import.meta.url), "utf8");
}
