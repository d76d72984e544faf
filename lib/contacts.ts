/**
 * Contacts compared as XML elements: a contact is its whole element, the names of it and its
 * fields with their namespaces, their attributes and their text, in their order. What XML
 * holds insignificant makes no difference: namespace prefixes, the order of attributes, and
 * the indentation (whitespace is collapsed, and whitespace between fields dropped), so a
 * server may re-serialize a contact, but not strip, rename or re-namespace what it says. Pure.
 */
import type { Result } from "./result.ts";
import { ATOM_NS, attribute, childElements, escapeXml, parseXml, type XmlElement } from "./xml.ts";

/**
 * A contact in one canonical form, itself XML: each element declares its namespace where it
 * differs from its parent's (the contact where it has one), attributes are sorted by namespace
 * and name (namespaced ones on prefixes n0, n1, … in that order), text is collapsed.
 */
export function canonicalContact(contact: XmlElement): string {
  return canonicalElement(contact, undefined);
}

const XML_NS = "http://www.w3.org/XML/1998/namespace";

function canonicalElement(element: XmlElement, parentNs: string | undefined): string {
  const declarations = element.ns === parentNs ? [] : [` xmlns="${escapeXml(element.ns ?? "")}"`];
  const prefixes = new Map<string, string>([[XML_NS, "xml"]]);
  const sorted = [...element.attributes].sort((a, b) => compare(a.ns ?? "", b.ns ?? "") || compare(a.local, b.local));
  const attributes = sorted.map(({ ns, local, value }) => {
    if (ns === undefined) return ` ${local}="${escapeXml(value)}"`;
    if (!prefixes.has(ns)) {
      prefixes.set(ns, `n${prefixes.size - 1}`);
      declarations.push(` xmlns:${prefixes.get(ns)}="${escapeXml(ns)}"`);
    }
    return ` ${prefixes.get(ns)}:${local}="${escapeXml(value)}"`;
  });
  const text = escapeXml(collapseWhitespace(element.text));
  const inner = element.children.map((child) => canonicalElement(child, element.ns)).join("") + text;
  return `<${element.local}${declarations.join("")}${attributes.join("")}>${inner}</${element.local}>`;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * What a canonical contact says, leaving out how: its leaf fields by local name and text,
 * sorted. Two contacts alike by this yet unequal differ in attributes, namespaces, order or
 * nesting: what a failure can name where a contact arrived changed.
 */
export function contactFields(canonical: string): string {
  const parsed = parseXml(canonical);
  if (!parsed.ok) return canonical;
  const fields: string[] = [];
  const walk = (element: XmlElement) => {
    if (element.children.length === 0) {
      fields.push(`${element.local}=${JSON.stringify(collapseWhitespace(element.text))}`);
    } else element.children.forEach(walk);
  };
  walk(parsed.root);
  return fields.sort().join(" ");
}

/** A contact `held` lacks, named with the held contact that says the same in another form, if one does. */
export function describeMissing(contact: string, held: readonly string[]): string {
  const fields = contactFields(contact);
  const changed = held.find((other) => contactFields(other) === fields);
  return changed === undefined
    ? contact
    : `${contact}, held only as ${changed} (its attributes, namespaces or order changed)`;
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
