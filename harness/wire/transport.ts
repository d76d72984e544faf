/**
 * What sxd's two HTTP clients (the probe and the scenarios' client) share about the wire:
 * dropping a body unread, a body's size in words, and a failure to get a reply told in words a
 * user can act on ("connection refused (is the server running?)", not ECONNREFUSED).
 */
import { endableTimeLimit } from "../../lib/held-up.ts";

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
 * How far a reply's time limit may stretch while this process is held up: at most this many
 * times the limit in all, so a target that never answers is still given up on in bounded time.
 * The dispatcher's own timeouts are set to this much (dispatcher.ts), so the signal governs.
 */
export const HELD_UP_STRETCH = 3;

/**
 * A signal that aborts a request once `timeoutMs` have passed (AbortSignal.timeout's place),
 * counting only time in which this process could have read the reply (lib/held-up.ts timeLimit).
 * When the process is held up, the reply cannot be read, and a server that runs in this process
 * (the reference, a proxy) cannot even send it: a server that did answer would be "no complete reply".
 */
export function replyTimeLimit(timeoutMs: number): AbortSignal {
  return endableReplyTimeLimit(timeoutMs).signal;
}

/** replyTimeLimit's signal, and `end` to call once the reply is read (lib/held-up.ts endableTimeLimit). */
export function endableReplyTimeLimit(timeoutMs: number): { signal: AbortSignal; end: () => void } {
  // A TimeoutError, as AbortSignal.timeout's: describeTransportError says the limit passed.
  return endableTimeLimit(
    timeoutMs,
    HELD_UP_STRETCH,
    () => new DOMException(`no reply within ${timeoutMs} ms`, "TimeoutError"),
  );
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
