/**
 * The export servers' choices where the spec says "not shown", one set per variant
 * (context.ts): the standard one, and the other allowed choice, so the suite can prove it
 * takes neither for a rule. `exportChoices` is where the variant is read; the two servers
 * ask what to do, never which variant runs. A setting (exportRel) comes first.
 */
import type { ReferenceContext, Variant } from "../context.ts";
import type { TokenFormat } from "./token.ts";

export interface ExportChoices {
  /** The export link's relation. */
  exportRel: string;
  /** The export link's title. */
  exportTitle: string;
  /** The contact list puts the Atom namespace on a prefix (`atom:link`), or makes it the default namespace. */
  atomPrefixed: boolean;
  tokenFormat: TokenFormat;
  /** The status of an export whose token is missing, malformed, forged or expired: 403, or 404. */
  refusedTokenStatus: 403 | 404;
  /** What the messaging server shows of a user's copy: a contact list, or an Atom feed of one entry per contact. */
  listing: "contact-list" | "feed";
  /** An upload's reply: 303 to the user's copy, or 204 No Content. */
  uploadReply: "see-other" | "no-content";
  /** The messaging server refuses a request target with a broken escape (`%3G`) with 400, as Go's HTTP server does. */
  refusesBrokenEscapes: boolean;
}

const EXPORT_CHOICES: Record<Variant, ExportChoices> = {
  standard: {
    exportRel: "https://sxd.example/rel/export-to-messaging",
    exportTitle: "Export these contacts to the messaging server",
    atomPrefixed: true,
    tokenFormat: "standard",
    refusedTokenStatus: 403,
    listing: "contact-list",
    uploadReply: "see-other",
    refusesBrokenEscapes: false,
  },
  alternative: {
    exportRel: "urn:sxd:rel:copy-contacts-to-messaging",
    exportTitle: "Copy my address book to messaging",
    atomPrefixed: false,
    tokenFormat: "alternative",
    refusedTokenStatus: 404,
    listing: "feed",
    uploadReply: "no-content",
    refusesBrokenEscapes: true,
  },
};

export function exportChoices(context: Pick<ReferenceContext, "variant">): ExportChoices {
  return EXPORT_CHOICES[context.variant];
}
