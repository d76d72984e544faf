/**
 * One exchange as HTML: the request and the reply as they went over the wire, each header on
 * its line; a long body folds into <details> so a page reads at the pace of its rules. The docs
 * site shows what sxd sent (an Exchange), the interop evidence pages what a client sent to a
 * server with sxd between them (a RecordedRequest); both read the same.
 */
import type { Fields, RecordedRequest } from "../../lib/recording.ts";
import { shorten } from "../../lib/shorten.ts";
import { escapeXml as escapeHtml } from "../../lib/xml.ts";
import type { Exchange } from "./exchange.ts";

/** Bodies longer than this (characters or lines) are folded. */
const FOLD_CHARS = 600;
const FOLD_LINES = 12;
/** A body is shown up to this many characters, the rest counted: a page stays readable whatever a target sent. */
const BODY_CHARS = 16_000;

export function exchangeHtml(exchange: Exchange): string {
  const request = [
    `${exchange.method} ${exchange.url}`,
    ...Object.entries(exchange.requestHeaders).map(([name, value]) => `${name}: ${value}`),
  ];
  const note = exchange.note === undefined ? "" : `<p class="note">${escapeHtml(exchange.note)}</p>`;
  const reply = exchange.response
    ? message(
        "reply",
        [`${exchange.response.status}`, ...fieldLines(exchange.response.headers)],
        exchange.response.body,
      )
    : `<pre class="reply error">no reply: ${escapeHtml(exchange.error ?? "unknown")}</pre>`;
  return `<div class="exchange">${note}${message("request", request, exchange.requestBody)}${reply}</div>`;
}

/** A request a server received and the reply it gave, as recorded between a client and a server. */
export function recordedRequestHtml(recorded: RecordedRequest): string {
  const where = recorded.origin ?? `${recorded.server} server`;
  const by = recorded.bySxd ? ", sent by sxd's own server, not the client" : "";
  const note = `<p class="note">${escapeHtml(`${recorded.at} · to the ${where}${by}`)}</p>`;
  const request = [`${recorded.method} ${recorded.target}`, ...fieldLines(recorded.headers)];
  const reply = [`${recorded.reply.status}`, ...fieldLines(recorded.reply.headers)];
  return `<div class="exchange">${note}${message("request", request, recorded.body)}${message("reply", reply, recorded.reply.body)}</div>`;
}

/** Each header on its line; a repeated header once per value. */
function fieldLines(fields: Fields | Record<string, string[]>): string[] {
  return Object.entries(fields).flatMap(([name, values]) =>
    (Array.isArray(values) ? values : [values]).map((value) => `${name}: ${value}`),
  );
}

function message(kind: "request" | "reply", head: string[], body: string | undefined): string {
  const headHtml = `<pre class="${kind}">${escapeHtml(head.join("\n"))}</pre>`;
  if (!body) return headHtml;
  const bodyHtml = `<pre class="${kind} body">${escapeHtml(shorten(body, BODY_CHARS, { sayLength: true }))}</pre>`;
  if (body.length <= FOLD_CHARS && body.split("\n").length <= FOLD_LINES) return headHtml + bodyHtml;
  return `${headHtml}<details class="body"><summary>${kind} body, ${body.length} characters</summary>${bodyHtml}</details>`;
}
