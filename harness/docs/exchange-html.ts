/**
 * One recorded exchange as HTML: the request and the reply as they went over the wire, each
 * header on its line; a long body folds into <details> so a page reads at the pace of its rules.
 */
import { escapeXml as escapeHtml } from "../../lib/xml.ts";
import type { Exchange } from "../exchange.ts";

/** Bodies longer than this (characters or lines) are folded. */
const FOLD_CHARS = 600;
const FOLD_LINES = 12;

export function exchangeHtml(exchange: Exchange): string {
  const request = [
    `${exchange.method} ${exchange.url}`,
    ...Object.entries(exchange.requestHeaders).map(([name, value]) => `${name}: ${value}`),
  ];
  const note = exchange.note === undefined ? "" : `<p class="note">${escapeHtml(exchange.note)}</p>`;
  const reply = exchange.response
    ? message(
        "reply",
        [
          `${exchange.response.status}`,
          ...Object.entries(exchange.response.headers).flatMap(([name, values]) => values.map((v) => `${name}: ${v}`)),
        ],
        exchange.response.body,
      )
    : `<pre class="reply error">no reply: ${escapeHtml(exchange.error ?? "unknown")}</pre>`;
  return `<div class="exchange">${note}${message("request", request, exchange.requestBody)}${reply}</div>`;
}

function message(kind: "request" | "reply", head: string[], body: string | undefined): string {
  const headHtml = `<pre class="${kind}">${escapeHtml(head.join("\n"))}</pre>`;
  if (!body) return headHtml;
  const bodyHtml = `<pre class="${kind} body">${escapeHtml(body)}</pre>`;
  if (body.length <= FOLD_CHARS && body.split("\n").length <= FOLD_LINES) return headHtml + bodyHtml;
  return `${headHtml}<details class="body"><summary>${kind} body, ${body.length} characters</summary>${bodyHtml}</details>`;
}
