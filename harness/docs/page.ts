/**
 * The frame every page of the site shares: head, navigation between behaviours and to the LIM
 * cases, the filters (on the pages of rules).
 */
import { escapeXml as escapeHtml } from "../../lib/xml.ts";
import { BEHAVIOURS } from "../evidence/presentation.ts";

export function pageHtml(options: {
  title: string;
  current: string;
  withBehaviourFilter: boolean;
  /** False on a page with no rules to filter (the LIM cases): no form, no script. */
  withFilters?: boolean;
  body: string;
}): string {
  const nav = [{ slug: "index", title: "All rules" }, ...BEHAVIOURS, { slug: "lim-cases", title: "Limits (LIM)" }]
    .map((b) => {
      const current = b.slug === options.current ? ' aria-current="page"' : "";
      return `<a href="${b.slug}.html"${current}>${escapeHtml(b.title)}</a>`;
    })
    .join(" ");
  const behaviourFilter = options.withBehaviourFilter
    ? `<fieldset><legend>Behaviour</legend>${BEHAVIOURS.map((b) => checkbox("behaviour", b.slug, b.title)).join("")}</fieldset>`
    : "";
  const filters = options.withFilters === false ? "" : filtersForm(behaviourFilter);
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)} · sxd</title>
<link rel="stylesheet" href="site.css">
</head><body>
<header><nav aria-label="Behaviours">${nav}</nav></header>
<main>
<h1>${escapeHtml(options.title)}</h1>
${filters}${options.body}
</main>
${options.withFilters === false ? "" : '<script src="site.js"></script>\n'}</body></html>
`;
}

function filtersForm(behaviourFilter: string): string {
  return `<form id="filters" role="search" aria-label="Filter the rules">
<fieldset><legend>Level</legend>${["must", "should", "may"].map((l) => checkbox("level", l, l.toUpperCase())).join("")}</fieldset>
${behaviourFilter}
<span class="search"><label for="search">Search rules and steps</label> <input id="search" type="search" autocomplete="off"></span>
<p id="shown" aria-live="polite"></p>
</form>
`;
}

function checkbox(name: string, value: string, label: string): string {
  const id = `${name}-${value}`;
  return `<input type="checkbox" id="${id}" name="${name}" value="${value}" checked> <label for="${id}">${escapeHtml(label)}</label> `;
}
