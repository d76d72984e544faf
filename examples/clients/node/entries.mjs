#!/usr/bin/env node
/**
 * The snapshot side of the example client, with nothing but node: `update` reads the entry,
 * changes its title and PUTs the whole entry back, conditional on the Last-Modified it read
 * (on a 412 it reads again and retries); `history` prints the title of every version, newest
 * first, following the previous links the server serves until there is none.
 *
 *   node entries.mjs update  https://host/entries/x "A new title"
 *   node entries.mjs history https://host/entries/x
 */
import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { wire } from "./wire.mjs";

const ATOM_ENTRY = "application/atom+xml;type=entry;charset=UTF-8";
const ENTITIES = { "&lt;": "<", "&gt;": ">", "&quot;": '"', "&apos;": "'", "&amp;": "&" };

const fromXml = (text) => text.replace(/&(lt|gt|quot|apos|amp);/g, (entity) => ENTITIES[entity]);
const toXml = (text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The entry's own title (the first title element: the entry's, before any of its children's). */
function titleOf(xml) {
  const match = /<(?:\w+:)?title\b[^>]*>([\s\S]*?)<\/(?:\w+:)?title>/.exec(xml);
  return match ? fromXml(match[1]) : undefined;
}

/** The href of the entry's link with this rel, as served. */
function linkOf(xml, rel) {
  for (const [tag] of xml.matchAll(/<(?:\w+:)?link\b[^>]*>/g)) {
    const attribute = (name) => new RegExp(`\\s${name}\\s*=\\s*"([^"]*)"`).exec(tag)?.[1];
    if (attribute("rel") === rel) return fromXml(attribute("href") ?? "");
  }
  return undefined;
}

async function read(url) {
  const reply = await wire.send(url, { headers: { accept: "application/atom+xml" } });
  if (reply.status !== 200) throw new Error(`GET ${url}: ${reply.status}`);
  return { xml: await reply.text(), lastModified: reply.headers.get("last-modified") };
}

export async function update(url, title) {
  for (let attempt = 1; attempt <= 3; attempt++) {
    const { xml, lastModified } = await read(url);
    if (!lastModified) throw new Error(`GET ${url}: no Last-Modified to make the update conditional on`);
    const body = xml.replace(/(<(?:\w+:)?title\b[^>]*>)[\s\S]*?(<\/(?:\w+:)?title>)/, `$1${toXml(title)}$2`);
    const reply = await wire.send(url, {
      method: "PUT",
      headers: { "content-type": ATOM_ENTRY, "if-unmodified-since": lastModified },
      body,
    });
    // 412: someone changed the entry since our read; read it again and apply the change to that.
    if (reply.status === 412) continue;
    if (!reply.ok) throw new Error(`PUT ${url}: ${reply.status} ${await reply.text()}`);
    return;
  }
  throw new Error(`PUT ${url}: the entry kept changing (412 three times)`);
}

export async function history(url) {
  const titles = [];
  const seen = new Set();
  for (let next = url; next !== undefined && !seen.has(next); ) {
    seen.add(next);
    const { xml } = await read(next);
    titles.push(titleOf(xml) ?? "");
    next = linkOf(xml, "previous");
  }
  return titles;
}

// Run as a command, not imported: node started this file, by whatever path or link it was given.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  const [command, url, title] = process.argv.slice(2);
  try {
    if (command === "update") await update(url, title);
    else if (command === "history") process.stdout.write((await history(url)).map((t) => `${t}\n`).join(""));
    else throw new Error(`unknown command ${command}: update or history`);
  } catch (error) {
    process.stderr.write(`entries: ${error.message}\n`);
    process.exitCode = 1;
  }
}
