/**
 * A small, namespace-aware XML reader over fast-xml-parser, safe for untrusted input:
 * no DOCTYPE, no entity expansion beyond the five predefined entities and character
 * references, text kept exactly as written ("007" stays "007").
 *
 * Elements are matched by namespace URI and local name, never by prefix, so
 * `<a:entry xmlns:a="http://www.w3.org/2005/Atom">` is an Atom entry like `<entry xmlns=...>`.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";

export const ATOM_NS = "http://www.w3.org/2005/Atom";
export const XML_NS = "http://www.w3.org/XML/1998/namespace";

export interface XmlAttribute {
  ns: string | undefined;
  local: string;
  value: string;
}

export interface XmlElement {
  ns: string | undefined;
  local: string;
  attributes: XmlAttribute[];
  children: XmlElement[];
  /** The element's own character data, concatenated, entities decoded. */
  text: string;
}

export type XmlResult = { ok: true; root: XmlElement } | { ok: false; error: string };

type OrderedNode = Record<string, unknown>;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  allowBooleanAttributes: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  commentPropName: "#comment",
});

/**
 * Anything outside XML 1.0's Char production (§2.2): C0 controls but tab, CR and LF; lone
 * surrogates; U+FFFE and U+FFFF. A document holding one is not XML, however it is written.
 */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/** The text with every character XML cannot carry (see NOT_XML_CHAR) shown as U+FFFD. */
export function xmlCharactersOnly(text: string): string {
  return text.replace(new RegExp(NOT_XML_CHAR.source, "gu"), "\uFFFD");
}

function forbiddenCharacter(text: string): string | undefined {
  const found = NOT_XML_CHAR.exec(text);
  if (!found) return undefined;
  const code = (found[0].codePointAt(0) as number).toString(16).toUpperCase().padStart(4, "0");
  return `U+${code} is not a character XML allows`;
}

export function parseXml(text: string): XmlResult {
  if (/<!DOCTYPE/i.test(text)) return { ok: false, error: "DOCTYPE declarations are not accepted" };
  const forbidden = forbiddenCharacter(text);
  if (forbidden) return { ok: false, error: forbidden };
  const valid = XMLValidator.validate(text, { allowBooleanAttributes: false });
  if (valid !== true) return { ok: false, error: `not well-formed XML: ${valid.err.msg} (line ${valid.err.line})` };
  try {
    const nodes = parser.parse(text) as OrderedNode[];
    const elements = nodes.filter((n) => elementName(n) !== undefined);
    if (elements.length !== 1) return { ok: false, error: "an XML document has exactly one root element" };
    return { ok: true, root: resolve(elements[0], new Map([["xml", XML_NS]])) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

function elementName(node: OrderedNode): string | undefined {
  return Object.keys(node).find((k) => k !== ":@" && k !== "#text" && k !== "#comment");
}

function resolve(node: OrderedNode, inherited: Map<string, string>): XmlElement {
  const qname = elementName(node) as string;
  const rawAttributes = (node[":@"] ?? {}) as Record<string, string>;
  const scope = new Map(inherited);
  for (const [name, value] of Object.entries(rawAttributes)) {
    if (name === "xmlns") scope.set("", decodeEntities(value));
    else if (name.startsWith("xmlns:")) scope.set(name.slice(6), decodeEntities(value));
  }
  const [prefix, local] = splitQName(qname);
  const ns = scope.get(prefix ?? "") || undefined;
  if (prefix !== undefined && ns === undefined) throw new Error(`undeclared namespace prefix "${prefix}"`);
  const attributes: XmlAttribute[] = [];
  for (const [name, value] of Object.entries(rawAttributes)) {
    if (name === "xmlns" || name.startsWith("xmlns:")) continue;
    const [attrPrefix, attrLocal] = splitQName(name);
    const attrNs = attrPrefix === undefined ? undefined : scope.get(attrPrefix);
    if (attrPrefix !== undefined && attrNs === undefined)
      throw new Error(`undeclared namespace prefix "${attrPrefix}"`);
    attributes.push({ ns: attrNs, local: attrLocal, value: decodeEntities(value) });
  }
  const children: XmlElement[] = [];
  let text = "";
  for (const child of (node[qname] ?? []) as OrderedNode[]) {
    if ("#text" in child) text += decodeEntities(String(child["#text"]));
    else if (elementName(child) !== undefined) children.push(resolve(child, scope));
  }
  return { ns, local, attributes, children, text };
}

function splitQName(qname: string): [string | undefined, string] {
  const colon = qname.indexOf(":");
  return colon < 0 ? [undefined, qname] : [qname.slice(0, colon), qname.slice(colon + 1)];
}

const PREDEFINED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);/g, (whole, ref: string) => {
    if (ref.startsWith("#")) {
      const code = ref.startsWith("#x") ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      const decoded = code <= 0x10ffff ? String.fromCodePoint(code) : "\u0000";
      if (forbiddenCharacter(decoded))
        throw new Error(`the character reference ${whole} names a character XML forbids`);
      return decoded;
    }
    const known = PREDEFINED[ref];
    if (known === undefined) throw new Error(`unknown entity ${whole}`);
    return known;
  });
}

export function childElements(parent: XmlElement, ns: string | undefined, local: string): XmlElement[] {
  return parent.children.filter((c) => c.ns === ns && c.local === local);
}

export function childElement(parent: XmlElement, ns: string | undefined, local: string): XmlElement | undefined {
  return parent.children.find((c) => c.ns === ns && c.local === local);
}

export function attribute(element: XmlElement, local: string, ns?: string): string | undefined {
  return element.attributes.find((a) => a.local === local && a.ns === ns)?.value;
}

const ESCAPED: Record<string, string> = {
  "<": "&lt;",
  ">": "&gt;",
  "&": "&amp;",
  '"': "&quot;",
  "'": "&apos;",
  "\r": "&#13;",
};

/**
 * Text for an element or an attribute. A carriage return goes by its number: a reader turns a
 * raw one into a line feed (XML 1.0 §2.11), so text that arrived with `&#13;` would come back changed.
 */
export function escapeXml(text: string): string {
  return text.replace(/[<>&"'\r]/g, (c) => ESCAPED[c]);
}

/** The error body of the spec: `<error><message>…</message></error>`. */
export function errorDocument(message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<error><message>${escapeXml(message)}</message></error>\n`;
}
