/**
 * What the reports (report/) and the docs site (docs/) present alike, kept below both so that
 * neither imports the other: the site's page for each behaviour, where a row's section is on
 * the published site (`sxd test --docs-url`), a verdict as a CSS class name, and what a run
 * judged as a column heading.
 */
import { shorten } from "../../lib/shorten.ts";
import { withoutTrailingSlashes } from "../../lib/uri.ts";
import { escapeXml as escapeHtml } from "../../lib/xml.ts";
import type { Side } from "../judging/catalogue.ts";
import { type ConformanceDocument, documentSide, documentSubject } from "./conformance-document.ts";

export interface Behaviour {
  /** Row ID prefix: DIG, EXP, SNAP. */
  prefix: string;
  /** Page file name without .html, and the data-behaviour value. */
  slug: string;
  title: string;
  /** Whom its rows bind: the server, or the client (CDIG, CEXP, CSNAP). */
  side: Side;
}

/** The server's behaviours, then the client's, in the catalogue's order. */
export const BEHAVIOURS: Behaviour[] = [
  { prefix: "DIG", slug: "digest", title: "Digest authentication", side: "server" },
  { prefix: "EXP", slug: "export", title: "Export by link", side: "server" },
  { prefix: "SNAP", slug: "snapshots", title: "Snapshots on update", side: "server" },
  { prefix: "CDIG", slug: "client-digest", title: "Clients: Digest authentication", side: "client" },
  { prefix: "CEXP", slug: "client-export", title: "Clients: export by link", side: "client" },
  { prefix: "CSNAP", slug: "client-snapshots", title: "Clients: updates and versions", side: "client" },
];

export function behaviourOf(rowId: string): Behaviour {
  const found = BEHAVIOURS.find((b) => rowId.startsWith(`${b.prefix}-`));
  if (!found) throw new Error(`row ${rowId} belongs to no behaviour`);
  return found;
}

/** `https://example.org/sxd` and a row → the row's anchor on its behaviour's page, `https://example.org/sxd/digest.html#<row>`. */
export function rowDocsUrl(docsUrl: string, rowId: string): string {
  return `${withoutTrailingSlashes(docsUrl)}/${behaviourOf(rowId).slug}.html#${rowId}`;
}

/** "not run" → "not-run": conformance.html and the site's stylesheet style the same names. */
export function cssClass(verdict: string): string {
  return verdict.replace(/ /g, "-");
}

/** Longer client commands are cut in a heading; the whole command is its title. */
const COMMAND_CHARS = 60;

/**
 * What a run judged, as HTML for a column heading: the server's base URL, or "client" and the
 * client's command (a client run's target reads `client: <command>`), linked where href is given.
 */
export function subjectHtml(doc: ConformanceDocument, href?: string): string {
  const subject = documentSubject(doc);
  const name =
    documentSide(doc) === "server"
      ? escapeHtml(subject)
      : `client <code title="${escapeHtml(subject)}">${escapeHtml(shorten(subject, COMMAND_CHARS))}</code>`;
  return href === undefined ? name : `<a href="${escapeHtml(href)}">${name}</a>`;
}

/** The cell of a run on a row of the side it does not judge. */
export function otherSideCellHtml(doc: ConformanceDocument, side: Side): string {
  return `<td class="other-side" title="a ${documentSide(doc)} run judges no ${side} row">–</td>`;
}
