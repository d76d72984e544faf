/**
 * A deliberately unsafe reading of a body's document type, for the fault mode
 * snap-expands-entities (faults.ts): what an XML parser with DTD processing left on does.
 * It expands the entities the body declares (internal ones recursively), reads the files and
 * fetches the addresses that external ones name (parameter entities too), and hands on the
 * document without its DOCTYPE. Bounded, so the fault cannot take the test run down with it:
 * an expansion stops at MAX_EXPANSION characters, a file or address gives at most as many,
 * and a fetch waits at most FETCH_TIMEOUT_MS.
 *
 *   await expandedEntities('<!DOCTYPE e [<!ENTITY x "y">]><e>&x;</e>'); // "<e>y</e>"
 */
import { open } from "node:fs/promises";
import { escapeXml } from "../../lib/xml.ts";

const MAX_EXPANSION = 64 * 1024;
const FETCH_TIMEOUT_MS = 2000;
const PREDEFINED = new Set(["amp", "lt", "gt", "quot", "apos"]);

const DOCTYPE = /<!DOCTYPE\s+[^[>]*(?:\[([\s\S]*?)\])?\s*>/;
const DECLARATION = /<!ENTITY\s+(%\s+)?([A-Za-z_][\w.-]*)\s+(?:SYSTEM\s+"([^"]*)"|"([^"]*)")\s*>/g;

export async function expandedEntities(text: string): Promise<string> {
  const doctype = DOCTYPE.exec(text);
  if (!doctype) return text;
  const general = new Map<string, string>();
  for (const [, percent, name, system, value] of (doctype[1] ?? "").matchAll(DECLARATION)) {
    const replacement = system === undefined ? value : await resolved(system);
    // A parameter entity is read where the subset names it; only its effect matters here.
    if (percent === undefined) general.set(name, replacement);
  }
  const body = text.slice(0, doctype.index) + text.slice(doctype.index + doctype[0].length);
  return body.replace(/&([A-Za-z_][\w.-]*);/g, (reference, name: string) =>
    PREDEFINED.has(name) || !general.has(name) ? reference : escapeXml(expand(name, general, { left: MAX_EXPANSION })),
  );
}

function expand(name: string, entities: Map<string, string>, budget: { left: number }): string {
  const value = entities.get(name) ?? "";
  let out = "";
  for (const piece of value.split(/(&[A-Za-z_][\w.-]*;)/)) {
    if (budget.left <= 0) break;
    const inner = /^&([A-Za-z_][\w.-]*);$/.exec(piece)?.[1];
    const text =
      inner !== undefined && entities.has(inner) ? expand(inner, entities, budget) : piece.slice(0, budget.left);
    if (inner === undefined || !entities.has(inner)) budget.left -= text.length;
    out += text;
  }
  return out;
}

async function resolved(uri: string): Promise<string> {
  try {
    if (uri.startsWith("file:")) return await fileHead(new URL(uri));
    const reply = await fetch(uri, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    return (await reply.text()).slice(0, MAX_EXPANSION);
  } catch {
    return "";
  }
}

async function fileHead(url: URL): Promise<string> {
  const file = await open(url, "r");
  try {
    const buffer = Buffer.alloc(MAX_EXPANSION);
    const { bytesRead } = await file.read(buffer, 0, MAX_EXPANSION, 0);
    return buffer.subarray(0, bytesRead).toString("utf8");
  } finally {
    await file.close();
  }
}
