/**
 * The documents of the export behaviour, pure: the contacts fixture, the contact list the
 * contacts server serves, the listing of what the messaging server holds, and reading the
 * contacts back out of a list.
 *
 * Contacts travel between the servers as XML elements and are stored serialized, so what
 * the messaging server shows is exactly what the contacts server served, whatever fields a
 * contact has.
 */

import type { Result } from "../../lib/result.ts";
import { ATOM_NS, escapeXml, parseXml, type XmlElement } from "../../lib/xml.ts";

/** The fixture: user name → contacts, each a flat record of text fields. */
export type ContactsFixture = Record<string, Array<Record<string, string>>>;

const XML_NAME = /^[A-Za-z_][A-Za-z0-9._-]*$/;
export const USER_NAME = /^[A-Za-z0-9._~-]{1,64}$/;

export function parseFixture(text: string, where: string): Result<ContactsFixture> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `${where}: not valid JSON (${(error as Error).message})` };
  }
  if (!isRecord(data)) return { ok: false, error: `${where}: expected an object of user name → list of contacts` };
  for (const [user, contacts] of Object.entries(data)) {
    if (!USER_NAME.test(user)) return { ok: false, error: `${where}: user name "${user}" is not a plain path segment` };
    if (!Array.isArray(contacts)) return { ok: false, error: `${where}: contacts of "${user}" must be a list` };
    for (const [index, contact] of contacts.entries()) {
      const at = `${where}: contact ${index + 1} of "${user}"`;
      if (!isRecord(contact)) return { ok: false, error: `${at} must be an object of text fields` };
      for (const [field, value] of Object.entries(contact)) {
        if (!XML_NAME.test(field)) return { ok: false, error: `${at}: field "${field}" is not an XML element name` };
        if (typeof value !== "string") return { ok: false, error: `${at}: field "${field}" must be text` };
      }
    }
  }
  return { ok: true, value: data as ContactsFixture };
}

/** The user whose list holds `length` generated contacts (ReferenceContext.longLists). */
export function longListUser(length: number): string {
  return `long-${length}`;
}

/** A list of each length, under longListUser's name: contacts alike but for their number. */
export function longListsFixture(lengths: readonly number[]): ContactsFixture {
  const list = (length: number) =>
    Array.from({ length }, (_, i) => ({
      name: `Contact ${i + 1} of ${length}`,
      email: `contact-${i + 1}@long-${length}.example.org`,
      phone: `+1 555 ${String(i).padStart(4, "0")}`,
    }));
  return Object.fromEntries(lengths.map((length) => [longListUser(length), list(length)]));
}

export function contactElement(contact: Record<string, string>): string {
  const fields = Object.entries(contact).map(([name, value]) => `<${name}>${escapeXml(value)}</${name}>`);
  return `<contact>${fields.join("")}</contact>`;
}

export interface ContactListLinks {
  self?: string;
  export?: { rel: string; href: string; title?: string };
}

/**
 * `atomPrefixed` puts the Atom namespace on a prefix (`atom:link`, contacts unqualified);
 * otherwise it is the default namespace of the whole document. The spec allows both.
 */
export function contactListDocument(
  contacts: readonly string[],
  links: ContactListLinks,
  atomPrefixed: boolean,
): string {
  const link = atomPrefixed ? "atom:link" : "link";
  const lines = [`<contacts ${atomPrefixed ? "xmlns:atom" : "xmlns"}="${ATOM_NS}">`];
  if (links.self !== undefined) lines.push(`  <${link} rel="self" href="${escapeXml(links.self)}"/>`);
  if (links.export) {
    const { rel, href, title } = links.export;
    const titled = title === undefined ? "" : ` title="${escapeXml(title)}"`;
    lines.push(`  <${link} rel="${escapeXml(rel)}" href="${escapeXml(href)}"${titled}/>`);
  }
  for (const contact of contacts) lines.push(`  ${contact}`);
  lines.push("</contacts>");
  return `<?xml version="1.0" encoding="UTF-8"?>\n${lines.join("\n")}\n`;
}

/** The alternative listing: an Atom feed with one entry per contact, the contact inside its content. */
export function contactFeedDocument(contacts: readonly string[], self: string, user: string): string {
  const entries = contacts.map(
    (contact, index) =>
      `  <entry><title>contact ${index + 1}</title><content type="application/xml">${contact}</content></entry>`,
  );
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<feed xmlns="${ATOM_NS}">`,
    `  <title>Contacts imported for ${escapeXml(user)}</title>`,
    `  <link rel="self" href="${escapeXml(self)}"/>`,
    ...entries,
    "</feed>",
    "",
  ].join("\n");
}

/** The contact elements of a contact list document, serialized with their namespaces. */
export function contactsOfList(text: string): Result<string[]> {
  const parsed = parseXml(text);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const root = parsed.root;
  if (root.local !== "contacts") return { ok: false, error: `the root element is ${root.local}, not contacts` };
  const contacts = root.children.filter((child) => child.local === "contact" && child.ns === root.ns);
  return { ok: true, value: contacts.map((contact) => serializeElement(contact)) };
}

/**
 * Writes an element back as XML. The outermost element always declares its default
 * namespace (`xmlns=""` for none), so the text keeps its meaning wherever it is embedded.
 */
export function serializeElement(element: XmlElement): string {
  return serializeWithin(element, { ns: null });
}

function serializeWithin(element: XmlElement, parent: { ns: string | undefined | null }): string {
  const declarations: string[] = [];
  if (element.ns !== parent.ns) declarations.push(` xmlns="${escapeXml(element.ns ?? "")}"`);
  const prefixes = new Map<string, string>();
  const attributes = element.attributes.map(({ ns, local, value }) => {
    if (ns === undefined) return ` ${local}="${escapeXml(value)}"`;
    if (ns === "http://www.w3.org/XML/1998/namespace") return ` xml:${local}="${escapeXml(value)}"`;
    let prefix = prefixes.get(ns);
    if (prefix === undefined) {
      prefix = `n${prefixes.size}`;
      prefixes.set(ns, prefix);
      declarations.push(` xmlns:${prefix}="${escapeXml(ns)}"`);
    }
    return ` ${prefix}:${local}="${escapeXml(value)}"`;
  });
  const inner = element.children.length
    ? element.children.map((child) => serializeWithin(child, element)).join("")
    : escapeXml(element.text);
  return `<${element.local}${declarations.join("")}${attributes.join("")}>${inner}</${element.local}>`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
