/**
 * Mutants of one valid Atom entry (RFC 4287 §4.1.2) as a client would PUT it: an element left
 * out, given twice or emptied, the Atom namespace changed, a very long title, bytes that are
 * not UTF-8, the document cut short, a DOCTYPE declaring an internal entity (plain or nested,
 * bounded), foreign markup nested deep (bounded). Pure and deterministic: the same fields and
 * mutations give the same bytes.
 *
 *   const mutant = mutateEntry({ id, title, authorName, content }, [parseEntryMutation("entry:drop:title")]);
 *   send(mutant.body); // mutant.malformed: a server must refuse it
 */
import { escapeXml } from "./xml.ts";

export interface EntryFields {
  id: string;
  title: string;
  authorName: string;
  content: string;
}

export const ENTRY_ELEMENTS = ["author", "title", "id", "content"] as const;
export type EntryElement = (typeof ENTRY_ELEMENTS)[number];

/** Kinds that name an element (drop:title), and kinds that take a size (long-title:4096). */
const ELEMENT_KINDS = ["drop", "double", "empty"] as const;
const SIZED_KINDS = ["long-title", "truncate", "deep"] as const;
const PLAIN_KINDS = ["namespace", "latin1-title", "doctype", "doctype-nested"] as const;
export type EntryMutationKind =
  | (typeof ELEMENT_KINDS)[number]
  | (typeof SIZED_KINDS)[number]
  | (typeof PLAIN_KINDS)[number];

export interface EntryMutation {
  kind: EntryMutationKind;
  element?: EntryElement;
  /** long-title: characters added; truncate: characters kept; deep: levels of nesting. */
  size?: number;
}

/** No more levels than this: deeper nesting tests sxd's memory, not the server's parser. */
export const MAX_DEPTH = 10_000;
export const MAX_TITLE_GROWTH = 1 << 20;
const SIZES: Record<(typeof SIZED_KINDS)[number], number[]> = {
  "long-title": [1024, 16_384, 65_536],
  truncate: [40, 100, 200],
  deep: [64, 1024, 5000],
};
/** The Atom 0.3 namespace: an entry in it is an older format's, not RFC 4287's. */
const OTHER_NAMESPACE = "http://purl.org/atom/ns#";
/** What an expanded entity leaves in the title; a server that stores the text literally keeps "&sxd;". */
export const EXPANSION = "sxd-entity-expanded";
/** Stands for the byte 0xE9 (é in ISO-8859-1, never alone in UTF-8) until the text is encoded. */
const LATIN1_MARK = "\uE000";

export const entryMutationId = (m: EntryMutation) =>
  ["entry", m.kind, ...(m.element ? [m.element] : []), ...(m.size === undefined ? [] : [String(m.size)])].join(":");

export function parseEntryMutation(id: string): EntryMutation | undefined {
  const [family, kind, ...rest] = id.split(":");
  if (family !== "entry") return undefined;
  if ((ELEMENT_KINDS as readonly string[]).includes(kind)) {
    const element = rest[0] as EntryElement;
    if (rest.length !== 1 || !ENTRY_ELEMENTS.includes(element)) return undefined;
    return { kind: kind as EntryMutationKind, element };
  }
  if ((SIZED_KINDS as readonly string[]).includes(kind)) {
    if (rest.length !== 1 || !/^\d{1,7}$/.test(rest[0])) return undefined;
    return { kind: kind as EntryMutationKind, size: Number(rest[0]) };
  }
  if ((PLAIN_KINDS as readonly string[]).includes(kind) && rest.length === 0)
    return { kind: kind as EntryMutationKind };
  return undefined;
}

/** Every mutation once, sized ones at their middle size. */
export function singleEntryMutations(): EntryMutation[] {
  return [
    ...ELEMENT_KINDS.flatMap((kind) => ENTRY_ELEMENTS.map((element) => ({ kind, element }))),
    ...SIZED_KINDS.map((kind) => ({ kind, size: SIZES[kind][1] })),
    ...PLAIN_KINDS.map((kind) => ({ kind })),
  ];
}

/** One mutation drawn from the seed, sized ones at any of their sizes. */
export function randomEntryMutation(random: () => number): EntryMutation {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const single = pick(singleEntryMutations());
  const sizes = SIZES[single.kind as (typeof SIZED_KINDS)[number]];
  return sizes ? { ...single, size: pick(sizes) } : single;
}

/** A mutation one step smaller (a size halved), or none. */
export function smallerEntryMutation(m: EntryMutation): EntryMutation | undefined {
  return m.size !== undefined && m.size > 1 ? { ...m, size: Math.floor(m.size / 2) } : undefined;
}

export interface MutatedEntry {
  /** Text where every character is UTF-8; bytes where one is not. */
  body: string | Uint8Array;
  /**
   * Not a well-formed Atom entry as SNAP-12's cases judge one: not XML (cut short, bytes that
   * are not UTF-8), outside the Atom namespace, without an id (or with an empty one: no IRI,
   * RFC 4287 §4.2.6) or a title. A doubled element, another emptied one, a DOCTYPE or deep
   * foreign markup leave a document a server may take.
   */
  malformed: boolean;
  /** Whether the document declares a document type with an entity used in the title. */
  declaresEntity: boolean;
}

export function mutateEntry(fields: EntryFields, mutations: readonly EntryMutation[]): MutatedEntry {
  const has = (kind: EntryMutationKind, element?: EntryElement) =>
    mutations.some((m) => m.kind === kind && (element === undefined || m.element === element));
  const sizeOf = (kind: EntryMutationKind) => mutations.find((m) => m.kind === kind)?.size;
  const entity = has("doctype-nested") ? "c" : has("doctype") ? "sxd" : undefined;
  const growth = Math.min(sizeOf("long-title") ?? 0, MAX_TITLE_GROWTH);
  const titleText = [
    entity ? `&${entity};` : escapeXml(fields.title),
    "x".repeat(growth),
    has("latin1-title") ? `caf${LATIN1_MARK}` : "",
  ].join("");
  const inner: Record<EntryElement, [string, string]> = {
    author: [`<author><name>${escapeXml(fields.authorName)}</name></author>`, "<author></author>"],
    title: [`<title>${titleText}</title>`, "<title></title>"],
    id: [`<id>${escapeXml(fields.id)}</id>`, "<id></id>"],
    content: [`<content type="text">${escapeXml(fields.content)}</content>`, "<content></content>"],
  };
  const children = ENTRY_ELEMENTS.flatMap((element) => {
    if (has("drop", element)) return [];
    const [full, empty] = inner[element];
    const shown = has("empty", element) ? empty : full;
    return has("double", element) ? [shown, shown] : [shown];
  });
  const depth = Math.min(sizeOf("deep") ?? 0, MAX_DEPTH);
  if (depth > 0) children.push(`${'<x:d xmlns:x="urn:sxd:fuzz">'.repeat(depth)}${"</x:d>".repeat(depth)}`);
  const namespace = has("namespace") ? OTHER_NAMESPACE : "http://www.w3.org/2005/Atom";
  const doctype =
    entity === "c"
      ? `<!DOCTYPE entry [<!ENTITY a "${EXPANSION}"><!ENTITY b "&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;">]>\n`
      : entity
        ? `<!DOCTYPE entry [<!ENTITY sxd "${EXPANSION}">]>\n`
        : "";
  let text = `<?xml version="1.0" encoding="UTF-8"?>\n${doctype}<entry xmlns="${namespace}">${children.join("")}</entry>`;
  const kept = sizeOf("truncate");
  const truncated = kept !== undefined;
  if (truncated) text = text.slice(0, Math.max(1, Math.min(kept, text.length - 1)));
  const notUtf8 = text.includes(LATIN1_MARK);
  const titled = !has("drop", "title") && !has("empty", "title");
  return {
    body: notUtf8 ? latin1Marked(text) : text,
    malformed:
      truncated || notUtf8 || has("namespace") || has("drop", "id") || has("empty", "id") || has("drop", "title"),
    declaresEntity: entity !== undefined && titled && !truncated,
  };
}

/** The text as UTF-8, each LATIN1_MARK as the one byte 0xE9. */
function latin1Marked(text: string): Uint8Array {
  const encoder = new TextEncoder();
  const parts = text.split(LATIN1_MARK).map((part) => encoder.encode(part));
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, parts.length - 1));
  let at = 0;
  parts.forEach((part, i) => {
    if (i > 0) bytes[at++] = 0xe9;
    bytes.set(part, at);
    at += part.length;
  });
  return bytes;
}
