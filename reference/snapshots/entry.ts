/**
 * The snapshot-enabled entry: what a client must send (author name, title, id, content) and
 * how the server writes it back with its self / previous / next links, all absolute.
 * Pure: text in, fields or text out.
 */
import { readAtomEntry } from "../../lib/atom.ts";
import { ATOM_NS, escapeXml } from "../../lib/xml.ts";

export interface Entry {
  id: string;
  title: string;
  authorName: string;
  content: { text: string; type?: string; lang?: string };
}

export interface EntryLinks {
  self: string;
  previous?: string;
  next?: string;
}

export type EntryResult = { ok: true; entry: Entry } | { ok: false; error: string };

/** Content kinds kept as text; xhtml and out-of-line content would need markup we do not store. */
const TEXT_CONTENT_TYPES = new Set([undefined, "text", "html"]);

export function parseEntry(text: string): EntryResult {
  const read = readAtomEntry(text);
  if (!read.ok) return read;
  const { id, title, authorName, content } = read.entry;
  if (!id || title === undefined || authorName === undefined || !content) {
    const present: [string, boolean][] = [
      ["id", Boolean(id)],
      ["title", title !== undefined],
      ["author/name", authorName !== undefined],
      ["content", content !== undefined],
    ];
    const missing = present.filter(([, there]) => !there).map(([name]) => name);
    return { ok: false, error: `the entry lacks ${missing.join(", ")}` };
  }
  if (content.src !== undefined || !TEXT_CONTENT_TYPES.has(content.type) || content.hasMarkup) {
    return { ok: false, error: 'this server stores inline content of type "text" or "html" only' };
  }
  return {
    ok: true,
    entry: { id, title, authorName, content: { text: content.text, type: content.type, lang: content.lang } },
  };
}

export function serialiseEntry(entry: Entry, links: EntryLinks, updated: Date): string {
  const contentAttributes = [
    entry.content.type === undefined ? "" : ` type="${escapeXml(entry.content.type)}"`,
    entry.content.lang === undefined ? "" : ` xml:lang="${escapeXml(entry.content.lang)}"`,
  ].join("");
  const linkLines = (["self", "previous", "next"] as const)
    .filter((rel) => links[rel] !== undefined)
    .map((rel) => `  <link rel="${rel}" href="${escapeXml(links[rel] as string)}"/>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<entry xmlns="${ATOM_NS}">`,
    `  <id>${escapeXml(entry.id)}</id>`,
    `  <title>${escapeXml(entry.title)}</title>`,
    `  <updated>${updated.toISOString().replace(/\.\d{3}Z$/, "Z")}</updated>`,
    `  <author><name>${escapeXml(entry.authorName)}</name></author>`,
    `  <content${contentAttributes}>${escapeXml(entry.content.text)}</content>`,
    ...linkLines,
    "</entry>",
    "",
  ].join("\n");
}
