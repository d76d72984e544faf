/**
 * What a cell's task is about on the real server, prepared as any client of it would: the
 * protected resource for the digest tasks, an entry for update (made with PUT If-None-Match: *
 * under the description's collection, or the resource it names), an entry of three versions
 * for history, the description's user's contact list for export. And the effect, read back
 * afterwards: the new title, the contacts on the messaging server.
 */
import { randomUUID } from "node:crypto";
import { readAtomEntry } from "../../lib/atom.ts";
import { contactsAnywhere, countOccurrences } from "../../lib/contacts.ts";
import { parseHttpDate } from "../../lib/http-date.ts";
import { ATOM_ENTRY_TYPE } from "../../lib/media-type.ts";
import type { RecordedRequest } from "../../lib/recording.ts";
import { escapeXml } from "../../lib/xml.ts";
import { POST_BODY, type TaskSubject } from "../client/tasks.ts";
import { type Behaviour, headersFor, stated, type TargetDescription, unstatedReason } from "../description/target.ts";
import type { InteropTask } from "../evidence/interop-document.ts";
import { replyTimeLimit } from "../wire/transport.ts";

/** The versions of the history task's entry, oldest first, as in `sxd test-client`. */
const HISTORY = ["First version", "Second version", "Third version"];

export type Prepared = { ok: true; subject: TaskSubject } | { ok: false; problem: string };

interface Reply {
  status: number;
  headers: Headers;
  body: string;
}

async function send(
  target: TargetDescription,
  method: string,
  url: string,
  timeoutMs: number,
  init: { headers?: Record<string, string>; body?: string } = {},
): Promise<Reply> {
  const reply = await fetch(url, {
    method,
    headers: { ...headersFor(target, url), ...init.headers },
    ...(init.body !== undefined ? { body: init.body } : {}),
    redirect: "manual",
    signal: replyTimeLimit(timeoutMs),
  });
  return { status: reply.status, headers: reply.headers, body: await reply.text() };
}

const ok = (status: number) => status >= 200 && status < 300;

function entry(id: string, title: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<entry xmlns="http://www.w3.org/2005/Atom">',
    "  <author><name>sxd interop</name></author>",
    `  <title>${escapeXml(title)}</title>`,
    `  <id>${escapeXml(id)}</id>`,
    `  <content type="text">${escapeXml(`${title}, written by sxd`)}</content>`,
    "</entry>",
  ].join("\n");
}

/**
 * An entry whose versions carry these titles, oldest first: its URL, or why it could not be
 * made. Each update carries what the spec asks of one and nothing more: the Last-Modified
 * read, as If-Unmodified-Since (an ETag is no part of the spec, and a server may refuse an
 * If-Match). A 412 is then the server's one-second dates (a second update within the second
 * of the last): the update is read and sent again once the server's clock has passed that
 * second.
 */
async function makeEntry(target: TargetDescription, titles: readonly string[], timeoutMs: number) {
  const named = target.snapshots.resources?.[0]?.path;
  const url = `${target.baseUrl}${named ?? `${target.snapshots.collection}sxd-interop-${randomUUID()}`}`;
  const id = `urn:uuid:${randomUUID()}`;
  for (const [index, title] of titles.entries()) {
    for (let attempt = 1; ; attempt++) {
      const conditions: Record<string, string> = {};
      if (index === 0 && named === undefined) conditions["if-none-match"] = "*";
      else {
        const read = await send(target, "GET", url, timeoutMs);
        if (read.status !== 200)
          return { problem: `sxd could not read the entry it wrote (GET ${url}: ${read.status})` };
        const modified = read.headers.get("last-modified");
        if (modified) conditions["if-unmodified-since"] = modified;
      }
      const put = await send(target, "PUT", url, timeoutMs, {
        headers: { "content-type": ATOM_ENTRY_TYPE, ...conditions },
        body: entry(id, title),
      });
      if (ok(put.status)) break;
      const since = conditions["if-unmodified-since"];
      if (put.status !== 412 || since === undefined || attempt >= UPDATE_ATTEMPTS)
        return { problem: `sxd could not write the entry (PUT ${url}: ${put.status})` };
      await untilSecondAfter(target, url, since, timeoutMs);
    }
  }
  return { url };
}

const UPDATE_ATTEMPTS = 3;

/** Until the server's Date is past the second of `lastModified` (asked every 100 ms, for 2 s at most). */
async function untilSecondAfter(target: TargetDescription, url: string, lastModified: string, timeoutMs: number) {
  const read = parseHttpDate(lastModified)?.getTime();
  for (let poll = 0; poll < 20; poll++) {
    const now = parseHttpDate((await send(target, "GET", url, timeoutMs)).headers.get("date") ?? undefined)?.getTime();
    if (read === undefined || now === undefined || now > read) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const TASK_BEHAVIOUR: Record<InteropTask, Behaviour> = {
  "digest-get": "digest",
  "digest-post": "digest",
  update: "snapshots",
  history: "snapshots",
  export: "export",
};

/** Prepares the task on the real server; a problem makes the cell fail with it (sxd could not set it up). */
export async function prepareSubject(
  task: InteropTask,
  target: TargetDescription,
  timeoutMs: number,
): Promise<Prepared> {
  const unstated = unstatedReason(target, TASK_BEHAVIOUR[task]);
  if (unstated !== undefined) return { ok: false, problem: unstated };
  const digest = { url: `${target.baseUrl}${target.digest.path}`, title: "", body: "" };
  try {
    switch (task) {
      case "digest-get":
        return { ok: true, subject: digest };
      case "digest-post":
        return { ok: true, subject: { ...digest, body: POST_BODY } };
      case "update": {
        const made = await makeEntry(target, ["An entry to update"], timeoutMs);
        if (made.problem !== undefined) return { ok: false, problem: made.problem };
        return { ok: true, subject: { url: made.url, title: `Retitled by the client, ${Date.now()}`, body: "" } };
      }
      case "history": {
        const made = await makeEntry(target, HISTORY, timeoutMs);
        if (made.problem !== undefined) return { ok: false, problem: made.problem };
        return { ok: true, subject: { url: made.url, title: "", body: "", expectedOutput: [...HISTORY].reverse() } };
      }
      case "export": {
        const url = `${target.contactsUrl}/user/${encodeURIComponent(stated(target, "export").user)}/contacts`;
        return { ok: true, subject: { url, title: "", body: "" } };
      }
    }
  } catch (error) {
    return { ok: false, problem: `sxd could not prepare the task: ${(error as Error).message}` };
  }
}

/** Where the effect is missing, why in one line; undefined where it is there. */
export type EffectCheck = (exchange: readonly RecordedRequest[]) => Promise<string | undefined>;

/** How sxd sees the task's effect, beyond the exit code. */
export function effectOf(
  task: InteropTask,
  subject: TaskSubject,
  target: TargetDescription,
  output: string,
  timeoutMs: number,
): EffectCheck {
  switch (task) {
    case "digest-get":
    case "digest-post":
      return async (exchange) =>
        exchange.some((request) => isDigest(request) && ok(request.reply.status))
          ? undefined
          : "the server granted no request with Digest credentials in the exchange sxd saw";
    case "update":
      return async () => {
        const read = await send(target, "GET", subject.url, timeoutMs);
        const parsed = readAtomEntry(read.body);
        const title = parsed.ok ? parsed.entry.title : undefined;
        return title === subject.title
          ? undefined
          : `sxd read the entry back (${read.status}) and its title is ${title === undefined ? "not there" : `"${title}"`}, not the new one`;
      };
    case "history":
      return async () => {
        const lines = output
          .split(/\r?\n/)
          .map((line) => line.trim())
          .filter(Boolean);
        const expected = subject.expectedOutput ?? [];
        return lines.join("\n") === expected.join("\n")
          ? undefined
          : `the client printed ${lines.length} line(s), not the ${expected.length} titles newest first (${expected.join(", ")})`;
      };
    case "export":
      return (exchange) => exportedContacts(target, subject.url, exchange, timeoutMs);
  }
}

const isDigest = (request: RecordedRequest) => {
  const field = request.headers.authorization;
  return /^\s*digest\s/i.test(Array.isArray(field) ? field.join(",") : (field ?? ""));
};

/** The contacts of the list, every one on the messaging server where the description says the result is read. */
async function exportedContacts(
  target: TargetDescription,
  listUrl: string,
  exchange: readonly RecordedRequest[],
  timeoutMs: number,
): Promise<string | undefined> {
  const { result: readAt, user: named } = stated(target, "export");
  if (readAt === false) return "the target description states the export result cannot be read (export.result false)";
  const user = encodeURIComponent(named);
  let resultUrl = `${target.messagingUrl}/user/${user}`;
  if (readAt !== undefined && readAt !== "location")
    resultUrl = `${target.messagingUrl}${readAt.replaceAll("{user}", user)}`;
  else {
    const redirect = exchange.find((request) => request.server === "messaging" && request.reply.status === 303);
    const location = redirect?.reply.headers.location;
    if (typeof location === "string") resultUrl = new URL(location, `${target.messagingUrl}${redirect?.target}`).href;
  }
  const list = await send(target, "GET", listUrl, timeoutMs, { headers: { accept: "application/xml" } });
  const contacts = contactsAnywhere(list.body);
  if (list.status !== 200 || !contacts.ok)
    return `sxd could not read the contact list (GET ${listUrl}: ${list.status})`;
  const result = await send(target, "GET", resultUrl, timeoutMs, { headers: { accept: "application/xml, */*" } });
  const held = ok(result.status) ? contactsAnywhere(result.body) : undefined;
  if (!held?.ok) return `the messaging server holds no contacts at ${resultUrl} (${result.status})`;
  const missing = [...countOccurrences(contacts.value, held.value)].filter(([, n]) => n === 0);
  return missing.length === 0
    ? undefined
    : `${missing.length} of ${contacts.value.length} contacts are not on the messaging server (${resultUrl})`;
}
