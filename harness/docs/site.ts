/**
 * The spec as a site: an index of every rule and one page per behaviour, each rule with its
 * scenarios and a real exchange, plus the style sheet and the filter script. Pure: the caller
 * gathers the inputs (harness/docs/*) and writes the files.
 */
import { readFileSync } from "node:fs";
import { escapeXml as escapeHtml } from "../../lib/xml.ts";
import { BEHAVIOURS, behaviourOf } from "../presentation.ts";
import { pageHtml } from "./page.ts";
import { cellOf, serverHeading, verdictHtml } from "./results.ts";
import { rowSectionHtml, type SiteInput, searchText } from "./row-section.ts";

export type { SiteInput } from "./row-section.ts";

/** File name → content, every link between them relative, so the folder opens from disk. */
export function buildSite(input: SiteInput): Map<string, string> {
  const files = new Map<string, string>();
  files.set("index.html", indexHtml(input));
  for (const behaviour of BEHAVIOURS) {
    const rows = input.rows.filter((row) => behaviourOf(row.id) === behaviour);
    const body = rows.map((row) => rowSectionHtml(row, behaviour.slug, input)).join("\n");
    files.set(
      `${behaviour.slug}.html`,
      pageHtml({ title: behaviour.title, current: behaviour.slug, withBehaviourFilter: false, body }),
    );
  }
  files.set("site.css", asset("site.css"));
  files.set("site.js", asset("browser.js"));
  return files;
}

function indexHtml(input: SiteInput): string {
  const serverColumns = input.servers.map((s) => `<th scope="col">${serverHeading(s)}</th>`).join("");
  const lines = input.rows
    .map((row) => {
      const behaviour = behaviourOf(row.id);
      const cells = input.servers
        .map((s) => {
          const cell = cellOf(s, row.id);
          return `<td title="${escapeHtml(cell.reason ?? "")}">${verdictHtml(cell)}</td>`;
        })
        .join("");
      return `<tr class="filterable" data-level="${row.level}" data-behaviour="${behaviour.slug}" data-search="${escapeHtml(searchText(row, input.features))}">
<th scope="row"><a href="${behaviour.slug}.html#${row.id}">${row.id}</a></th><td><span class="level ${row.level}">${row.level.toUpperCase()}</span></td><td>${escapeHtml(behaviour.title)}</td><td>${escapeHtml(row.rule)}</td>${cells}</tr>`;
    })
    .join("\n");
  const body = `<p>Every rule of the interface, numbered, with its level: <b>MUST</b> (the spec states it), <b>SHOULD</b>
(the choice the HTTP and Digest RFCs lead to where the spec leaves it open) and <b>MAY</b> (an option a server
may take). Each rule's page shows the scenarios sxd runs to check it, in plain words, and the exchange
each made with sxd's bundled reference server.${input.servers.length > 0 ? " The last columns say how the servers whose reports were given fare." : ""}</p>
<table class="index"><caption>The rules</caption>
<tr><th scope="col">row</th><th scope="col">level</th><th scope="col">behaviour</th><th scope="col">rule</th>${serverColumns}</tr>
${lines}
</table>`;
  return pageHtml({ title: "sxd: the interface, rule by rule", current: "index", withBehaviourFilter: true, body });
}

function asset(name: string): string {
  return readFileSync(new URL(`./${name}`, import.meta.url), "utf8");
}
