/**
 * The ways a person reads an exchange: a transcript for reports and failure messages, a curl
 * line to replay the request, and the copy reports keep, with bodies cut to an excerpt.
 */
import { shorten } from "../../lib/shorten.ts";
import type { Exchange } from "./exchange.ts";

/** Characters of a body kept in a transcript, an attachment or a report. */
const BODY_EXCERPT = 4000;

/** The request as a curl command line a person can paste into a shell to replay it. */
export function curlCommand(exchange: Pick<Exchange, "method" | "url" | "requestHeaders" | "requestBody">): string {
  const parts = ["curl", "-i"];
  if (exchange.method !== "GET") parts.push("-X", exchange.method);
  parts.push(shellQuote(exchange.url));
  for (const [name, value] of Object.entries(exchange.requestHeaders)) {
    // A recorded nonce cannot be replayed: curl gets a fresh challenge and answers it itself.
    const digestUser = name.toLowerCase() === "authorization" ? /^Digest\s.*?\busername="([^"]*)"/i.exec(value) : null;
    if (digestUser) parts.push("--digest", "-u", shellQuote(`${digestUser[1]}:PASSWORD`));
    else parts.push("-H", shellQuote(`${name}: ${value}`));
  }
  if (exchange.requestBody !== undefined) parts.push("--data-binary", shellQuote(exchange.requestBody));
  return parts.join(" ");
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A human-readable transcript of one exchange, for reports and failure messages. */
export function formatExchange(exchange: Exchange): string {
  const lines = exchange.note === undefined ? [] : [`# ${exchange.note}`];
  lines.push(`> ${exchange.method} ${exchange.url}`);
  for (const [name, value] of Object.entries(exchange.requestHeaders)) lines.push(`> ${name}: ${value}`);
  if (exchange.requestBody)
    lines.push(
      ">",
      ...excerpt(exchange.requestBody)
        .split("\n")
        .map((l) => `> ${l}`),
    );
  if (exchange.heldMs !== undefined) lines.push(`(sxd held it back ${exchange.heldMs} ms to keep its pace)`);
  for (const refusal of exchange.refusals ?? []) {
    lines.push(`< ${refusal.status}`, ...headerLines(refusal.headers));
    lines.push(
      refusal.waitMs === undefined
        ? "(not an answer; sxd gave up)"
        : `(not an answer: sxd waited ${refusal.waitMs} ms and sent it again)`,
    );
  }
  if (exchange.response) {
    lines.push(`< ${exchange.response.status}`, ...headerLines(exchange.response.headers));
    if (exchange.response.body)
      lines.push(
        "<",
        ...excerpt(exchange.response.body)
          .split("\n")
          .map((l) => `< ${l}`),
      );
  } else {
    lines.push(`! ${exchange.error ?? "no reply"}`);
  }
  const stalled = exchange.stalledMs ? `, of which sxd's process was held up ${exchange.stalledMs} ms` : "";
  lines.push(`(${exchange.durationMs} ms${stalled})`);
  return lines.join("\n");
}

function headerLines(headers: Record<string, string[]>): string[] {
  return Object.entries(headers).flatMap(([name, values]) => values.map((value) => `< ${name}: ${value}`));
}

/**
 * A failure as a person reads it: what the rule expects, what came, and the exchange it came in
 * (`where` says whose, where it is not the step's own).
 */
export function failureText(expected: string, got: string, exchange?: Exchange, where = "in the exchange"): string {
  const shown = exchange ? `\n${where}:\n${formatExchange(exchange).replace(/^/gm, "    ")}` : "";
  // What came may be a whole body: the message keeps an excerpt, like the transcript.
  return `expected ${excerpt(expected)}\nbut got ${excerpt(got)}${shown}`;
}

/** The first few thousand characters of a body, and how long it was in all. */
export function excerpt(body: string): string {
  return shorten(body, BODY_EXCERPT, { sayLength: true });
}

/** The exchange as reports keep it: bodies cut to an excerpt, so a report stays small whatever came. */
export function recordable(exchange: Exchange): Exchange {
  const kept: Exchange = { ...exchange };
  if (kept.requestBody !== undefined) kept.requestBody = excerpt(kept.requestBody);
  if (kept.response) {
    // The bytes of a body that is not UTF-8 are for hashing it; the report shows its text.
    const { bodyBase64: _, ...response } = kept.response;
    kept.response = { ...response, body: excerpt(response.body) };
  }
  return kept;
}
