/**
 * The suite's HTTP client: undici underneath, every exchange recorded so that a failure
 * can show exactly what was sent and what came back.
 */

import { DEFAULT_MAX_BODY_BYTES } from "../../harness/description/settings.ts";
import { type Answered, type Exchange, type Headers, masked } from "../../harness/evidence/exchange.ts";
import { RateLimited, RequestNotSent, TransportError } from "../../harness/judging/step-errors.ts";
import { type TlsSettings, targetDispatcher } from "../../harness/wire/dispatcher.ts";
import { isRefusal, type RateLimits, rateLimitedReason, sleep } from "../../harness/wire/rate-limits.ts";
import {
  type Discardable,
  describeTransportError,
  discard,
  endableReplyTimeLimit,
  formatBytes,
} from "../../harness/wire/transport.ts";
import { type Dispatcher, request } from "../../harness/wire/undici.ts";
import { parseChallenges, parseCredentials } from "../../lib/auth-params.ts";
import { keptBody } from "../../lib/body.ts";
import { heldUpMs, watchHoldUps } from "../../lib/held-up.ts";

export interface HttpClientOptions {
  /** Per request: connecting, the head and the whole body. */
  timeoutMs: number;
  /** Reply bodies beyond this many bytes are not read: the request fails. */
  maxBodyBytes?: number;
  /**
   * Asked before each request; a string is why it is not sent (the run has given up on the
   * target). Told after each one whether the target answered.
   */
  guard?: { refusal(): string | undefined; record(answered: boolean): void; stop?(reason: string): void };
  /** Paces requests to what the target allows and decides the waits after a 429 (harness/wire/rate-limits.ts). */
  rate?: Pick<RateLimits, "pace" | "waitBeforeRetry">;
  tls?: TlsSettings;
  /** Headers the target needs on every request to a URL (a gateway key); a scenario's own win. */
  extraHeaders?: (url: string) => Headers;
  /** `sxd/<version>`, so a server's logs show who asked. */
  userAgent?: string;
  /**
   * Connections kept by the caller and shared with other clients (one per process, so each
   * scenario does not open new ones); close() leaves it open. Default: the client's own.
   */
  dispatcher?: Dispatcher;
}

function notUtf8(body: string | Uint8Array | undefined): boolean {
  if (body === undefined || typeof body === "string") return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(body);
    return false;
  } catch {
    return true;
  }
}

export class HttpClient {
  readonly exchanges: Exchange[] = [];
  private readonly agent: Dispatcher;
  /** Sent as X-Sxd-Scenario: the rows and the scenario, to find a request in the server's logs. */
  scenario: string | undefined;
  private readonly timeoutMs: number;
  private readonly maxBodyBytes: number;
  /** Nonces of Digest credentials the target answered (not refused) in this scenario. */
  private readonly answeredNonces = new Set<string>();
  /** Aborted by close(): a request a timed-out step left running ends with its scenario. */
  private readonly closing = new AbortController();

  constructor(private readonly options: HttpClientOptions) {
    this.timeoutMs = options.timeoutMs;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.agent = options.dispatcher ?? targetDispatcher(this.timeoutMs, options.tls);
  }

  get last(): Answered | undefined {
    return this.answered.at(-1);
  }

  /** The exchanges of the scenario that got a reply, in the order sent. */
  get answered(): Answered[] {
    return this.exchanges.filter((exchange): exchange is Answered => exchange.response !== undefined);
  }

  async send(
    method: string,
    url: string,
    options: {
      headers?: Headers;
      /** Bytes are sent as they are (a body that is not UTF-8); the transcript shows them decoded. */
      body?: string | Uint8Array;
      /** The request target is the URL's text after its origin, as written: dot segments and encoded slashes kept. */
      asWritten?: boolean;
      note?: string;
      /** A 503 with Retry-After is this request's answer, not "not now" (see isRefusal). */
      unavailableIsAnswer?: boolean;
    } = {},
  ): Promise<Answered> {
    const own = options.headers ?? {};
    const ownNames = new Set(Object.keys(own).map((name) => name.toLowerCase()));
    const extra = Object.entries(this.options.extraHeaders?.(url) ?? {}).filter(
      ([name]) => !ownNames.has(name.toLowerCase()),
    );
    const sent: Headers = {
      ...(this.options.userAgent ? { "user-agent": this.options.userAgent } : {}),
      ...(this.scenario ? { "x-sxd-scenario": this.scenario } : {}),
      ...Object.fromEntries(extra),
      ...own,
    };
    const exchange: Exchange = {
      method,
      url,
      // The report shows the extra headers with secret values masked; identification headers are left out.
      requestHeaders: { ...Object.fromEntries(extra.map(([name, value]) => [name, masked(name, value)])), ...own },
      requestBody:
        typeof options.body === "string" ? options.body : options.body && new TextDecoder().decode(options.body),
      ...(options.note === undefined ? {} : { note: options.note }),
      ...(notUtf8(options.body) ? { note: "the body holds bytes that are not UTF-8, shown here as U+FFFD" } : {}),
      startedAt: new Date().toISOString(),
      durationMs: 0,
    };
    this.exchanges.push(exchange);
    let waitedMs = 0;
    for (let attempt = 0; ; attempt++) {
      const refusal = this.options.guard?.refusal();
      if (refusal) {
        exchange.error = `not sent: ${refusal}`;
        throw new RequestNotSent(refusal);
      }
      const turn = (await this.options.rate?.pace()) ?? { asked: Date.now(), sentAt: Date.now(), heldMs: 0 };
      if (turn.heldMs > 0) exchange.heldMs = (exchange.heldMs ?? 0) + turn.heldMs;
      const reply = await this.attempt(exchange, sent, options);
      const rate = this.options.rate;
      if (!rate || !isRefusal(reply.response, options.unavailableIsAnswer)) {
        return this.checkedAfterRefusals(reply, waitedMs);
      }
      // Not an answer (RFC 6585 §4): the transcript keeps it, and the same request goes again.
      const wait = rate.waitBeforeRetry(reply.response, { turn, waitedMs, attempt });
      const { status, headers } = reply.response;
      exchange.refusals = [
        ...(exchange.refusals ?? []),
        { status, headers, waitMs: typeof wait === "number" ? wait : undefined },
      ];
      exchange.response = undefined;
      if (typeof wait !== "number") {
        exchange.error = wait.reason;
        this.options.guard?.stop?.(wait.reason);
        throw new RateLimited(`${method} ${url}: ${wait.reason}`);
      }
      await sleep(wait);
      waitedMs += wait;
    }
  }

  /**
   * A refused request is sent again with the same Digest credentials: a refusal means it was not
   * processed. A server that spent the nonce anyway answers the retry 401 with stale=true, which
   * would then be judged as its answer to a replay: where that nonce had not reached the server
   * before in this scenario, sxd cannot tell, and the scenario is not run.
   */
  private checkedAfterRefusals(reply: Answered, waitedMs: number): Answered {
    const authorization = Object.entries(reply.requestHeaders).find(([name]) => name.toLowerCase() === "authorization");
    const credentials = authorization === undefined ? undefined : parseCredentials(authorization[1]);
    const nonce =
      credentials?.ok && credentials.value.scheme.toLowerCase() === "digest"
        ? credentials.value.params.get("nonce")
        : undefined;
    if (nonce === undefined) return reply;
    const firstUse = !this.answeredNonces.has(nonce);
    this.answeredNonces.add(nonce);
    const challenges = parseChallenges(reply.response.headers["www-authenticate"] ?? []);
    const stale = challenges.ok && challenges.value.some((c) => c.params.get("stale")?.toLowerCase() === "true");
    const [refusal] = reply.refusals ?? [];
    if (!refusal || !firstUse || reply.response.status !== 401 || !stale) return reply;
    const reason = rateLimitedReason(
      refusal.status,
      waitedMs,
      ", then 401 stale: the refused attempt may have spent the nonce",
    );
    throw new RateLimited(`${reply.method} ${reply.url}: ${reason}`);
  }

  /** One attempt of the exchange's request, with the headers as sent (the exchange keeps them masked). */
  private async attempt(
    exchange: Exchange,
    sent: Headers,
    sending: { body?: string | Uint8Array; asWritten?: boolean },
  ): Promise<Answered> {
    const { method, url } = exchange;
    const started = performance.now();
    const stalls = watchHoldUps();
    const heldBefore = heldUpMs();
    const limit = endableReplyTimeLimit(this.timeoutMs);
    try {
      const reply = await request(url, {
        method: method as "GET",
        headers: sent,
        body: sending.body,
        asWritten: sending.asWritten,
        dispatcher: this.agent,
        signal: AbortSignal.any([limit.signal, this.closing.signal]),
      });
      const headers = normaliseHeaders(reply.headers);
      const body = await readCapped(reply.body, headers["content-length"]?.[0], this.maxBodyBytes);
      exchange.response = { status: reply.statusCode, headers, ...keptBody(body) };
      this.options.guard?.record(true);
      return exchange as Answered;
    } catch (error) {
      if (error instanceof OversizeBody) {
        // The target answered; only its size is wrong.
        this.options.guard?.record(true);
        exchange.error = error.message;
      } else if (this.closing.signal.aborted) {
        // sxd ended it, not the target: the breaker hears nothing of it.
        exchange.error = "abandoned: the scenario ended before the reply came";
      } else {
        this.options.guard?.record(false);
        exchange.error = describeTransportError(error, this.timeoutMs);
      }
      throw new TransportError(`${method} ${url}: ${exchange.error}`);
    } finally {
      exchange.durationMs = Math.round(performance.now() - started);
      const stalled = Math.round(heldUpMs() - heldBefore);
      if (stalled > 0) exchange.stalledMs = stalled;
      else delete exchange.stalledMs;
      limit.end();
      stalls();
    }
  }

  async close(): Promise<void> {
    this.closing.abort();
    if (!this.options.dispatcher) await this.agent.destroy();
  }
}

class OversizeBody extends Error {}

/**
 * Reads a reply body up to `maxBytes`; beyond that it stops reading, drops the connection and
 * throws, so memory stays bounded whatever the target sends. A declared length over the cap
 * is refused before any byte is read.
 */
async function readCapped(
  body: AsyncIterable<Buffer> & Discardable,
  contentLength: string | undefined,
  maxBytes: number,
): Promise<Buffer> {
  const tooLarge = (detail: string) => {
    discard(body);
    return new OversizeBody(`reply larger than ${formatBytes(maxBytes)} (${detail}; see --max-body)`);
  };
  if (contentLength !== undefined && Number(contentLength) > maxBytes) {
    throw tooLarge(`Content-Length: ${contentLength}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(`stopped reading after ${size} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function normaliseHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value : [value];
  }
  return out;
}
