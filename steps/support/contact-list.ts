/**
 * Reading the export documents as a client would: the contact list, its links, and the
 * contacts in whatever document a messaging server shows them. Pure, so it is tested
 * without a server.
 *
 * Contacts are compared by what they say, not how it is written down: the spec shows no
 * fields of a contact and leaves the data format between the servers to them, so a
 * messaging server may re-namespace a contact, reorder its fields or decorate them with
 * attributes. What must arrive is each field's text under its name.
 */

import type { Result } from "../../lib/result.ts";
import { isAbsoluteUri, withoutTrailingSlashes } from "../../lib/uri.ts";
import { ATOM_NS, attribute, parseXml, type XmlElement } from "../../lib/xml.ts";

export interface ListLink {
  rel: string | undefined;
  href: string | undefined;
  title: string | undefined;
}

export interface ContactList {
  root: XmlElement;
  /** The `atom:link` children of the root. */
  links: ListLink[];
  /** Canonical forms of the `contact` children of the root, whatever their namespace. */
  contacts: string[];
  /** Whether the root's start tag declares the Atom namespace (default or prefixed). */
  declaresAtom: boolean;
}

export function readContactList(body: string): Result<ContactList> {
  const parsed = parseXml(body);
  if (!parsed.ok) return { ok: false, error: `a body that is not XML (${parsed.error})` };
  const root = parsed.root;
  if (root.local !== "contacts") return { ok: false, error: `a root element ${root.local}` };
  const links = root.children
    .filter((child) => child.ns === ATOM_NS && child.local === "link")
    .map((link) => ({ rel: attribute(link, "rel"), href: attribute(link, "href"), title: attribute(link, "title") }));
  const contacts = root.children
    // The spec gives `contact` no namespace: the root's, none, or another are all a contact.
    .filter((child) => child.local === "contact")
    .map(canonicalContact);
  return { ok: true, value: { root, links, contacts, declaresAtom: rootDeclaresAtom(body) } };
}

function rootDeclaresAtom(body: string): boolean {
  const startTag = /<(?![?!])[^>]*>/.exec(body.replace(/<!--[\s\S]*?-->/g, ""))?.[0] ?? "";
  return /\sxmlns(?::[\w.-]+)?\s*=\s*(["'])http:\/\/www\.w3\.org\/2005\/Atom\1/.test(startTag);
}

/** True when `href` is an absolute URI under the messaging server's base URL. */
export function isOnServer(href: string | undefined, serverUrl: string): href is string {
  if (!isAbsoluteUri(href)) return false;
  const base = withoutTrailingSlashes(serverUrl);
  return href === base || href.startsWith(`${base}/`);
}

/**
 * The export link: the one with the target's relation when the description names it,
 * otherwise the one whose rel is an absolute URI and whose href is on the messaging server.
 */
export function findExportLink(links: ListLink[], messagingUrl: string, rel: string | undefined): ListLink | undefined {
  if (rel !== undefined) return links.find((link) => link.rel === rel);
  return links.find((link) => isAbsoluteUri(link.rel) && isOnServer(link.href, messagingUrl));
}

/** The token of an href of the form `<messagingUrl>/user/<user>/import;t=<token>`, or why it is not one. */
export function importToken(href: string, messagingUrl: string, user: string): Result<string> {
  const base = withoutTrailingSlashes(messagingUrl);
  if (!isOnServer(href, base)) return { ok: false, error: `an href not under ${base}` };
  const path = href.slice(base.length);
  const prefix = `/user/${encodeURIComponent(user)}/import;t=`;
  if (!path.startsWith(prefix)) return { ok: false, error: `the path ${path}` };
  const token = path.slice(prefix.length);
  if (!/^[^/;?#]+$/.test(token))
    return { ok: false, error: `the path ${path}, whose token is empty or not one segment` };
  return { ok: true, value: token };
}

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
