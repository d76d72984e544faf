/**
 * One HTTP exchange as the harness keeps it: what was sent, what came back or why nothing
 * did, and the ways a person reads it (a transcript, a curl line, excerpts for reports).
 */
export type Headers = Record<string, string>;

export interface RecordedResponse {
  status: number;
  /** Lower-case names; repeated headers keep every value. */
  headers: Record<string, string[]>;
  body: string;
}

export interface Exchange {
  method: string;
  url: string;
  requestHeaders: Headers;
  requestBody?: string;
  /** Why the suite sent this request, where the request alone does not say (a retry in another form). */
  note?: string;
  response?: RecordedResponse;
  /** Set when no reply came: refused, reset, timed out. */
  error?: string;
  /** Replies that were no answer (429; 503 with Retry-After), each followed by a wait and the same request again. */
  refusals?: Refusal[];
  /** ISO time the request was sent. */
  startedAt: string;
  durationMs: number;
}

/** A reply that was no answer; `waitMs` is how long sxd waited before sending again, absent where it gave up. */
export interface Refusal {
  status: number;
  headers: Record<string, string[]>;
  waitMs?: number;
}

export type Answered = Exchange & { response: RecordedResponse };

/** Characters of a body kept in a transcript, an attachment or a report. */
const BODY_EXCERPT = 4000;

/** The default cap on a reply body: larger replies are cut and fail the scenario. */
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

export type Discardable = { on(event: "error", listener: () => void): unknown; destroy(): unknown };

/** Stops reading a reply body and drops its connection; the abort is not an error to report. */
export function discard(body: Discardable): void {
  body.on("error", () => undefined);
  body.destroy();
}

/** 8388608 → "8 MiB"; a size that is no whole number of MiB or KiB stays in bytes. */
export function formatBytes(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/**
 * The name of the error a step throws for an exchange that got no usable reply (steps/support/
 * http.ts). Only its message is sxd's own words: an assertion's message quotes the target's
 * reply, which may say anything, "not sent" included.
 */
export const TRANSPORT_ERROR = "TransportError";

/** How an exchange sxd gave up before sending says so: the run stopped trying the target. */
const NOT_SENT = "not sent: ";

export function notSent(reason: string): string {
  return `${NOT_SENT}${reason}`;
}

/**
 * Why a failure is sxd's own decision not to send (the breaker, the deadline, an interruption,
 * a rate limit that ran out): the scenario was not run, whatever the target would have said.
 */
export function notSentReason(message: string | undefined): string | undefined {
  const line = message?.split("\n").find((l) => l.includes(`: ${NOT_SENT}`));
  return line?.slice(line.indexOf(`: ${NOT_SENT}`) + NOT_SENT.length + 2);
}

const NOT_HTTP = "the reply is not HTTP (is the target HTTPS?)";

export function describeTransportError(error: unknown, timeoutMs: number): string {
  const err = error as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = err.code ?? err.cause?.code;
  if (err.name === "TimeoutError" || err.name === "AbortError" || code?.includes("TIMEOUT")) {
    return `no complete reply within ${timeoutMs} ms`;
  }
  switch (code) {
    case "ECONNREFUSED":
      return "connection refused (is the server running?)";
    case "ECONNRESET":
    case "UND_ERR_SOCKET":
      return "the connection was closed before a complete reply";
    case "ENOTFOUND":
      return "host name not found";
    case "DEPTH_ZERO_SELF_SIGNED_CERT":
    case "SELF_SIGNED_CERT_IN_CHAIN":
    case "UNABLE_TO_VERIFY_LEAF_SIGNATURE":
    case "UNABLE_TO_GET_ISSUER_CERT_LOCALLY":
      return `the certificate is self-signed or from an unknown authority (${code}): give its authority with --ca FILE, or --insecure`;
    case "ERR_TLS_CERT_ALTNAME_INVALID":
      return "the certificate does not name this host (ERR_TLS_CERT_ALTNAME_INVALID)";
    case "UND_ERR_HEADERS_OVERFLOW":
      return "the reply's header section is too large";
    default:
      // llhttp's parse errors: bytes that are not an HTTP reply, often a TLS server's answer.
      if (err.name === "HTTPParserError" || code?.startsWith("HPE_")) return NOT_HTTP;
      return err.cause?.message ?? err.message ?? String(error);
  }
}

/** Header names whose values are secrets: credentials, keys, tokens, cookies. */
const SECRET_HEADER = /authorization|cookie|token|secret|key|password|credential/i;

/**
 * A configured header's value as reports show it: a secret is masked, its scheme word kept
 * ("Bearer •••"), so a report can be shared without the key it was run with.
 */
export function masked(name: string, value: string): string {
  if (!SECRET_HEADER.test(name)) return value;
  const scheme = /^([A-Za-z][\w-]*) +\S/.exec(value)?.[1];
  return scheme ? `${scheme} •••` : "•••";
}

/** One header's value; repeated fields are joined with ", " as RFC 9110 §5.3 allows. */
export function headerOf(exchange: Answered, name: string): string | undefined {
  const values = exchange.response.headers[name.toLowerCase()];
  return values === undefined ? undefined : values.join(", ");
}

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
  if (exchange.requestBody) lines.push(">", ...excerpt(exchange.requestBody).map((l) => `> ${l}`));
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
    if (exchange.response.body) lines.push("<", ...excerpt(exchange.response.body).map((l) => `< ${l}`));
  } else {
    lines.push(`! ${exchange.error ?? "no reply"}`);
  }
  lines.push(`(${exchange.durationMs} ms)`);
  return lines.join("\n");
}

function headerLines(headers: Record<string, string[]>): string[] {
  return Object.entries(headers).flatMap(([name, values]) => values.map((value) => `< ${name}: ${value}`));
}

function excerpt(body: string): string[] {
  return shorten(body).split("\n");
}

/** The first few thousand characters of a text, and how long it was in all. */
export function shorten(text: string, keep = BODY_EXCERPT): string {
  return text.length > keep ? `${text.slice(0, keep)}… (${text.length} characters in all)` : text;
}

/** The exchange as reports keep it: bodies cut to an excerpt, so a report stays small whatever came. */
export function recordable(exchange: Exchange): Exchange {
  const kept: Exchange = { ...exchange };
  if (kept.requestBody !== undefined) kept.requestBody = shorten(kept.requestBody);
  if (kept.response) kept.response = { ...kept.response, body: shorten(kept.response.body) };
  return kept;
}
