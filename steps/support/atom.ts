/**
 * The suite's Atom reader: the fields of an entry as a server sent them, and its links with
 * each href both as written and resolved against the address the entry came from. A row
 * demands absolute hrefs, so the reader says whether each one is; it never judges itself.
 */
import { type AtomEntry, readAtomEntry } from "../../lib/atom.ts";
import { isAbsoluteUri } from "../../lib/uri.ts";

export interface EntryLink {
  rel: string;
  href: string;
  /** The href resolved against the entry's own address; undefined when it is no URI reference at all. */
  url?: string;
  absolute: boolean;
}

export interface EntryView extends Omit<AtomEntry, "links"> {
  links: EntryLink[];
}

export type EntryViewResult = { ok: true; entry: EntryView } | { ok: false; error: string };

export function readEntry(body: string, retrievedFrom: string): EntryViewResult {
  const read = readAtomEntry(body);
  if (!read.ok) return read;
  return {
    ok: true,
    entry: {
      ...read.entry,
      links: read.entry.links.map((link) => ({
        ...link,
        url: resolve(link.href, retrievedFrom),
        absolute: isAbsoluteUri(link.href),
      })),
    },
  };
}

export function linksByRel(entry: EntryView, rel: string): EntryLink[] {
  return entry.links.filter((link) => link.rel === rel);
}

/** Compares URIs after URL normalisation (case of scheme and host, default port, dot segments). */
export function sameUri(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  const na = resolve(a);
  const nb = resolve(b);
  return na !== undefined && na === nb;
}

function resolve(href: string, base?: string): string | undefined {
  try {
    return new URL(href, base).href;
  } catch {
    return undefined;
  }
}
