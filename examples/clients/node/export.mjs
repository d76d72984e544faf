#!/usr/bin/env node
/**
 * The export side of the example client, with nothing but node: read the contact list, take
 * its export link (the atom:link that is not self) exactly as served, POST to it with no body,
 * and follow the 303 with a GET of its Location (fetch does that for a 303), printing what the
 * messaging server now holds.
 *
 *   node export.mjs https://contacts.example/user/alice/contacts
 */
const fromXml = (text) =>
  text.replace(
    /&(lt|gt|quot|apos|amp);/g,
    (e) => ({ "&lt;": "<", "&gt;": ">", "&quot;": '"', "&apos;": "'", "&amp;": "&" })[e],
  );

/** The href of the list's export link: its atom:link whose rel is not self. */
function exportLink(xml) {
  for (const [tag] of xml.matchAll(/<(?:\w+:)?link\b[^>]*>/g)) {
    const attribute = (name) => new RegExp(`\\s${name}\\s*=\\s*"([^"]*)"`).exec(tag)?.[1];
    const rel = attribute("rel");
    if (rel !== undefined && rel !== "self") return fromXml(attribute("href") ?? "");
  }
  return undefined;
}

export async function exportContacts(listUrl) {
  const list = await fetch(listUrl);
  if (list.status !== 200) throw new Error(`GET ${listUrl}: ${list.status}`);
  const href = exportLink(await list.text());
  if (!href) throw new Error(`the contact list at ${listUrl} has no export link`);
  const result = await fetch(href, { method: "POST" });
  if (!result.ok) throw new Error(`POST ${href}: ${result.status} ${await result.text()}`);
  return result.text();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    process.stdout.write(await exportContacts(process.argv[2]));
  } catch (error) {
    process.stderr.write(`export: ${error.message}\n`);
    process.exitCode = 1;
  }
}
