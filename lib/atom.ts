/**
 * Reads an Atom entry (RFC 4287) into plain fields, matching elements by namespace, never by
 * prefix. It reports what is there and leaves judging to the caller: the reference refuses
 * an entry without a title, the suite reports which field a server left out.
 *
 * @example
 *   const read = readAtomEntry('<a:entry xmlns:a="http://www.w3.org/2005/Atom">…</a:entry>');
 *   if (read.ok) read.entry.links.find((l) => l.rel === "previous")?.href;
 */
import { ATOM_NS, attribute, childElement, childElements, parseXml, XML_NS, type XmlElement } from "./xml.ts";

export interface AtomContent {
  text: string;
  /** The type attribute as written; Atom reads an absent one as "text". */
  type?: string;
  /** xml:lang in scope on the content element (its own, or the entry's). */
  lang?: string;
  /** True when the content holds child elements (xhtml or inline XML), which `text` does not carry. */
  hasMarkup: boolean;
  src?: string;
}

export interface AtomLink {
  /** RFC 4287 §4.2.7.2: a link without rel is "alternate". */
  rel: string;
  /** As written: possibly relative. */
  href: string;
}

export interface AtomEntry {
  id?: string;
  title?: string;
  authorName?: string;
  content?: AtomContent;
  updated?: string;
  links: AtomLink[];
}

export type AtomEntryResult = { ok: true; entry: AtomEntry } | { ok: false; error: string };

export function readAtomEntry(text: string): AtomEntryResult {
  const parsed = parseXml(text);
  if (!parsed.ok) return parsed;
  const root = parsed.root;
  if (root.ns !== ATOM_NS || root.local !== "entry") {
    return { ok: false, error: `the root element is {${root.ns ?? ""}}${root.local}, not an Atom entry` };
  }
  return { ok: true, entry: entryFields(root) };
}

function entryFields(root: XmlElement): AtomEntry {
  const author = childElement(root, ATOM_NS, "author");
  const content = childElement(root, ATOM_NS, "content");
  const entryLang = attribute(root, "lang", XML_NS);
  return {
    // An IRI holds no white space, so pretty-printing around it is not part of the id.
    id: childElement(root, ATOM_NS, "id")?.text.trim(),
    title: childElement(root, ATOM_NS, "title")?.text,
    authorName: author && childElement(author, ATOM_NS, "name")?.text,
    updated: childElement(root, ATOM_NS, "updated")?.text.trim(),
    content: content && {
      text: content.text,
      type: attribute(content, "type"),
      lang: attribute(content, "lang", XML_NS) ?? entryLang,
      hasMarkup: content.children.length > 0,
      src: attribute(content, "src"),
    },
    links: childElements(root, ATOM_NS, "link").map((link) => ({
      rel: attribute(link, "rel") ?? "alternate",
      href: attribute(link, "href") ?? "",
    })),
  };
}
