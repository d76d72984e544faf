#!/usr/bin/env node
/**
 * The export side of the example client, with nothing but node: read the contact list, take
 * its export link (the atom:link that is not self) exactly as served, POST to it with no body,
 * and follow the 303 with a GET of its Location (wire.mjs does that for a 303, as fetch does), printing what the
 * messaging server now holds. Where the list has no export link, or the POST to it fails
 * with a 5xx, it falls back (CEXP-4): it uploads the list it read to the messaging server
 * itself, by POST to /user/<user>/contacts.
 *
 *   node export.mjs https://contacts.example/user/alice/contacts https://messaging.example
 */
import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { wire } from "./wire.mjs";

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

export async function exportContacts(listUrl, messagingUrl) {
  const list = await wire.send(listUrl);
  if (list.status !== 200) throw new Error(`GET ${listUrl}: ${list.status}`);
  const xml = await list.text();
  const href = exportLink(xml);
  if (href) {
    const result = await wire.send(href, { method: "POST" });
    if (result.ok) return result.text();
    if (result.status < 500) throw new Error(`POST ${href}: ${result.status} ${await result.text()}`);
  }
  // The servers cannot coordinate (no link, or the export failed on their side): carry the
  // contacts over ourselves, once, as the list we read.
  return upload(listUrl, xml, messagingUrl);
}

/** The fallback: the contact list as read, POSTed to /user/<user>/contacts on the messaging server. */
async function upload(listUrl, xml, messagingUrl) {
  const user = /\/user\/([^/;?]+)\/contacts/.exec(new URL(listUrl).pathname)?.[1];
  if (!user || !messagingUrl) throw new Error(`no export link at ${listUrl}, and no way to upload the contacts`);
  const target = `${messagingUrl}/user/${user}/contacts`;
  const result = await wire.send(target, {
    method: "POST",
    headers: { "content-type": "application/xml;charset=UTF-8" },
    body: xml,
  });
  if (!result.ok) throw new Error(`POST ${target}: ${result.status} ${await result.text()}`);
  return result.text();
}

// Run as a command, not imported: node started this file, by whatever path or link it was given.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  try {
    process.stdout.write(await exportContacts(process.argv[2], process.argv[3]));
  } catch (error) {
    process.stderr.write(`export: ${error.message}\n`);
    process.exitCode = 1;
  }
}
