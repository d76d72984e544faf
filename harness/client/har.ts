/**
 * A HAR file (HAR 1.2, as browsers' developer tools, proxies and sxd itself write it) read as
 * a client's recording: each entry a request with the reply it got. Which server a request
 * went to is read from the traffic itself: the origin of a contact list read that links to an
 * export is the contacts server, the origin of the links it serves (other than self) is the
 * messaging server, and the rest is the server of the entries and the protected resources.
 */

import { listLinks } from "../../lib/contacts.ts";
import { parseJsonText } from "../../lib/json-text.ts";
import type { Fields, RecordedRequest } from "../../lib/recording.ts";
import type { Result } from "../../lib/result.ts";
import { parseXml } from "../../lib/xml.ts";

interface HarPair {
  name?: unknown;
  value?: unknown;
}

interface HarEntry {
  startedDateTime?: unknown;
  /** Chrome's mark of an entry its cache answered: nothing was sent. */
  _fromCache?: unknown;
  request?: { method?: unknown; url?: unknown; headers?: unknown; postData?: { text?: unknown } };
  response?: { status?: unknown; headers?: unknown; content?: { text?: unknown; encoding?: unknown } };
}

/** The recording of a HAR file's text; an error names the file and what is wrong with it. */
export function readHar(text: string, file: string): Result<RecordedRequest[]> {
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { ok: false, error: `${file}${parsed.place}: not JSON: ${parsed.reason}` };
  const entries = (parsed.value as { log?: { entries?: unknown } } | null)?.log?.entries;
  if (!Array.isArray(entries)) return { ok: false, error: `${file}: not a HAR file (no log.entries list)` };
  const requests: Array<{ request: RecordedRequest; index: number }> = [];
  for (const [index, entry] of (entries as HarEntry[]).entries()) {
    const request = requestOf(entry);
    if (typeof request === "string") return { ok: false, error: `${file}: entry ${index + 1}: ${request}` };
    if (request) requests.push({ request, index });
  }
  // In the order sent: by time (tools write their own UTC offsets and fractions), then as listed.
  const time = (request: RecordedRequest) => Date.parse(request.at) || 0;
  requests.sort((a, b) => time(a.request) - time(b.request) || a.index - b.index);
  return { ok: true, value: withServers(requests.map(({ request }) => request)) };
}

/**
 * One entry as a recorded request; undefined for one that was not sent (a browser's cache
 * answered it) or got no reply (status 0 or -1); a string says what is wrong.
 */
function requestOf(entry: HarEntry): RecordedRequest | string | undefined {
  const { request, response } = entry ?? {};
  if (entry?._fromCache) return undefined;
  if (typeof request?.method !== "string" || typeof request.url !== "string") return "no request method and url";
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return `the url ${JSON.stringify(request.url)} is not absolute`;
  }
  const status = Number(response?.status);
  if (!Number.isInteger(status) || status < 100) return undefined;
  const headers = fields(request.headers);
  // HTTP/2 recordings name the host :authority; the grades read Host, as HTTP/1.1 sends it.
  headers.host ??= headers[":authority"] ?? url.host;
  const content = response?.content;
  const body =
    typeof content?.text !== "string"
      ? ""
      : content.encoding === "base64"
        ? Buffer.from(content.text, "base64").toString("utf8")
        : content.text;
  return {
    server: "base",
    method: request.method.toUpperCase(),
    target: `${url.pathname}${url.search}`,
    headers: withoutPseudo(headers),
    body: typeof request.postData?.text === "string" ? request.postData.text : "",
    at: typeof entry.startedDateTime === "string" ? entry.startedDateTime : "",
    reply: { status, headers: withoutPseudo(fields(response?.headers)), body },
    origin: url.origin,
  };
}

/**
 * Where a request got a 2xx from an address that had answered 401 with a Digest challenge,
 * yet the recording shows no Authorization on it: the recording left the credentials out, as
 * a browser's HAR export does by default. Such a recording cannot show how the client answered.
 */
export function credentialsLeftOut(requests: readonly RecordedRequest[]): RecordedRequest | undefined {
  const challenged = new Set<string>();
  for (const request of requests) {
    const url = `${request.origin ?? ""}${request.target}`;
    const challenge = String(request.reply.headers["www-authenticate"] ?? "");
    if (request.reply.status === 401 && /(^|,)\s*digest\s/i.test(challenge)) challenged.add(url);
    else if (request.reply.status < 300 && challenged.has(url) && request.headers.authorization === undefined)
      return request;
  }
  return undefined;
}

/** Name/value pairs as lower-case fields, a name given twice holding both values. */
function fields(pairs: unknown): Fields {
  const result: Fields = {};
  for (const { name, value } of Array.isArray(pairs) ? (pairs as HarPair[]) : []) {
    if (typeof name !== "string" || typeof value !== "string") continue;
    const key = name.toLowerCase();
    const had = result[key];
    result[key] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
  }
  return result;
}

function withoutPseudo(headers: Fields): Fields {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !name.startsWith(":")));
}

/** Each request's server, from the contact lists read and the links they serve. */
function withServers(requests: RecordedRequest[]): RecordedRequest[] {
  const contacts = new Set<string>();
  const messaging = new Set<string>();
  for (const request of requests) {
    const document =
      request.method === "GET" && request.reply.status === 200 ? parseXml(request.reply.body) : undefined;
    if (!document?.ok || document.root.local !== "contacts") continue;
    const links = listLinks(request.reply.body);
    // The messaging server may list what it holds in the same form, without the export link.
    if (links.length === 0) continue;
    contacts.add(request.origin ?? "");
    for (const href of links) messaging.add(originOf(href));
  }
  return requests.map((request) => {
    const origin = request.origin ?? "";
    const server = messaging.has(origin) ? "messaging" : contacts.has(origin) ? "contacts" : "base";
    return { ...request, server };
  });
}

function originOf(href: string): string {
  try {
    return new URL(href).origin;
  } catch {
    return "";
  }
}
