/**
 * What the reports (report/) and the docs site (docs/) present alike, kept below both so that
 * neither imports the other: the site's page for each behaviour, where a row's section is on
 * the published site (`sxd test --docs-url`), and a verdict as a CSS class name.
 */
import { withoutTrailingSlashes } from "../lib/uri.ts";

export interface Behaviour {
  /** Row ID prefix: DIG, EXP, SNAP. */
  prefix: string;
  /** Page file name without .html, and the data-behaviour value. */
  slug: string;
  title: string;
}

export const BEHAVIOURS: Behaviour[] = [
  { prefix: "DIG", slug: "digest", title: "Digest authentication" },
  { prefix: "EXP", slug: "export", title: "Export by link" },
  { prefix: "SNAP", slug: "snapshots", title: "Snapshots on update" },
];

export function behaviourOf(rowId: string): Behaviour {
  const found = BEHAVIOURS.find((b) => rowId.startsWith(`${b.prefix}-`));
  if (!found) throw new Error(`row ${rowId} belongs to no behaviour`);
  return found;
}

/** `https://example.org/sxd` + DIG-4 → `https://example.org/sxd/digest.html#DIG-4`. */
export function rowDocsUrl(docsUrl: string, rowId: string): string {
  return `${withoutTrailingSlashes(docsUrl)}/${behaviourOf(rowId).slug}.html#${rowId}`;
}

/** "not run" → "not-run": conformance.html and the site's stylesheet style the same names. */
export function cssClass(verdict: string): string {
  return verdict.replace(/ /g, "-");
}
