/**
 * The suite's HTTP client: undici underneath, every exchange recorded so that a failure
 * can show exactly what was sent and what came back.
 */
import { Agent, request } from "undici";

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
  /** ISO time the request was sent. */
  startedAt: string;
  durationMs: number;
}

export type Answered = Exchange & { response: RecordedResponse };

/** The target did not answer. The message says how; the stack would only show our code. */
export class TransportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TransportError";
    this.stack = message;
  }
}

const BODY_EXCERPT = 4000;

export class HttpClient {
  readonly exchanges: Exchange[] = [];
  private readonly agent: Agent;

  constructor(private readonly timeoutMs: number) {
    this.agent = new Agent({ connectTimeout: timeoutMs, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  }

  get last(): Answered | undefined {
    const last = this.exchanges.at(-1);
    return last?.response ? (last as Answered) : undefined;
  }

  async send(
    method: string,
    url: string,
    options: { headers?: Headers; body?: string; note?: string } = {},
  ): Promise<Answered> {
    const exchange: Exchange = {
      method,
      url,
      requestHeaders: options.headers ?? {},
      requestBody: options.body,
      ...(options.note === undefined ? {} : { note: options.note }),
      startedAt: new Date().toISOString(),
      durationMs: 0,
    };
    this.exchanges.push(exchange);
    const started = performance.now();
    try {
      const reply = await request(url, {
        method: method as "GET",
        headers: options.headers,
        body: options.body,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const body = await reply.body.text();
      exchange.response = { status: reply.statusCode, headers: normaliseHeaders(reply.headers), body };
      return exchange as Answered;
    } catch (error) {
      exchange.error = describeTransportError(error, this.timeoutMs);
      throw new TransportError(`${method} ${url}: ${exchange.error}`);
    } finally {
      exchange.durationMs = Math.round(performance.now() - started);
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

function normaliseHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value : [value];
  }
  return out;
}

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
    case "HPE_INVALID_CONSTANT":
    case "HPE_INVALID_STATUS":
    case "HPE_INVALID_HEADER_TOKEN":
      return "the reply is not valid HTTP";
    default:
      return err.cause?.message ?? err.message ?? String(error);
  }
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
  for (const [name, value] of Object.entries(exchange.requestHeaders))
    parts.push("-H", shellQuote(`${name}: ${value}`));
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
  if (exchange.response) {
    lines.push(`< ${exchange.response.status}`);
    for (const [name, values] of Object.entries(exchange.response.headers)) {
      for (const value of values) lines.push(`< ${name}: ${value}`);
    }
    if (exchange.response.body) lines.push("<", ...excerpt(exchange.response.body).map((l) => `< ${l}`));
  } else {
    lines.push(`! ${exchange.error ?? "no reply"}`);
  }
  lines.push(`(${exchange.durationMs} ms)`);
  return lines.join("\n");
}

function excerpt(body: string): string[] {
  const cut = body.length > BODY_EXCERPT ? `${body.slice(0, BODY_EXCERPT)}… (${body.length} characters in all)` : body;
  return cut.split("\n");
}
