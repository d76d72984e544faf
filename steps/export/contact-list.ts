/**
 * Reading the export documents as a client would: the contact list, its links, and the
 * contacts in whatever document a messaging server shows them. Pure, so it is tested
 * without a server.
 *
 * A contact is its whole element: its fields, their namespaces, attributes and text, in their
 * order (lib/contacts.ts). What XML holds insignificant (prefixes, the order of attributes,
 * indentation) makes no difference, so a server may re-serialize a contact as it likes.
 */

import { canonicalContact } from "../../lib/contacts.ts";
import type { Result } from "../../lib/result.ts";
import { isAbsoluteUri, withoutTrailingSlashes } from "../../lib/uri.ts";
import { ATOM_NS, attribute, parseXml, type XmlElement } from "../../lib/xml.ts";

export { canonicalContact, contactsAnywhere, countOccurrences, describeMissing } from "../../lib/contacts.ts";

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
