/**
 * Contacts compared by what they say, not how they are written down: the spec shows no fields
 * of a contact and leaves the data format between the servers to them, so a server (or a
 * client uploading them) may re-namespace a contact, reorder its fields or decorate them with
 * attributes. What must arrive is each field's text under its name. Pure.
 */
import type { Result } from "./result.ts";
import { ATOM_NS, attribute, childElements, parseXml, type XmlElement } from "./xml.ts";

/**
 * A contact as the sorted fields it carries: each leaf element below it (the contact itself
 * when it has none) by local name and text with its whitespace collapsed. Namespaces,
 * prefixes, attributes, field order and nesting make no difference.
 */
export function canonicalContact(contact: XmlElement): string {
  const fields: string[] = [];
  const walk = (element: XmlElement) => {
    if (element.children.length === 0) {
      fields.push(`${element.local}=${JSON.stringify(collapseWhitespace(element.text))}`);
    } else element.children.forEach(walk);
  };
  walk(contact);
  return fields.sort().join(" ");
}

/** XML's whitespace (space, tab, CR, LF) collapsed and trimmed; other spaces, like U+00A0, are data. */
function collapseWhitespace(text: string): string {
  return text.replace(/[ \t\r\n]+/g, " ").replace(/^ | $/g, "");
}

/**
 * Every `contact` element anywhere in a document, canonical: a messaging server may show
 * what it holds in any XML shape (a list, a feed with the contacts in its entries, …).
 */
export function contactsAnywhere(body: string): Result<string[]> {
  const parsed = parseXml(body);
  if (!parsed.ok) return { ok: false, error: `a body that is not XML (${parsed.error})` };
  const found: string[] = [];
  const walk = (element: XmlElement) => {
    if (element.local === "contact") found.push(canonicalContact(element));
    else element.children.forEach(walk);
  };
  walk(parsed.root);
  return { ok: true, value: found };
}

/** How often each contact of `expected` occurs in `held`. */
export function countOccurrences(expected: string[], held: string[]): Map<string, number> {
  const counts = new Map(expected.map((contact) => [contact, 0]));
  for (const contact of held) if (counts.has(contact)) counts.set(contact, (counts.get(contact) ?? 0) + 1);
  return counts;
}

/** The hrefs of the links other than self in a contact list document. */
export function listLinks(body: string): string[] {
  const parsed = parseXml(body);
  if (!parsed.ok) return [];
  return childElements(parsed.root, ATOM_NS, "link")
    .filter((link) => attribute(link, "rel") !== "self")
    .flatMap((link) => attribute(link, "href") ?? []);
}
