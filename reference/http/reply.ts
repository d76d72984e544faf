/**
 * The reference servers' request and reply shapes. Handlers are functions from a request to
 * a reply, so they can be tested without a socket; `serve.ts` is the only place that touches
 * node:http.
 */
import type { IncomingHttpHeaders } from "node:http";
import { XML_TYPE } from "../../lib/media-type.ts";
import { errorDocument } from "../../lib/xml.ts";

export interface ServerRequest {
  method: string;
  /** The request-target exactly as sent, e.g. `/user/alice/import;t=abc?x=1`. */
  target: string;
  /** The path part of the target, still percent-encoded. */
  path: string;
  headers: IncomingHttpHeaders;
  /** Reads the whole body; rejects with a 413 HttpError past the server's size limit. */
  body(): Promise<Buffer>;
}

export interface Reply {
  status: number;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
}

/**
 * A route answers the requests it owns and returns undefined for the others: at once, or as a
 * promise where it waits (for the body, the store, another server). A route that answers at once
 * costs its caller no promise.
 */
export type Route = (request: ServerRequest) => Reply | undefined | Promise<Reply | undefined>;

/** An expected failure: becomes a reply with the spec's XML error body. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string | string[]> = {},
  ) {
    super(message);
  }
}

export function errorReply(status: number, message: string, headers: Record<string, string | string[]> = {}): Reply {
  return { status, headers: { "content-type": XML_TYPE, ...headers }, body: errorDocument(message) };
}

export function xmlReply(
  status: number,
  body: string,
  contentType = XML_TYPE,
  headers: Record<string, string> = {},
): Reply {
  return { status, headers: { "content-type": contentType, ...headers }, body };
}

export function methodNotAllowed(allowed: string[]): HttpError {
  return new HttpError(405, `method not allowed here; use ${allowed.join(", ")}`, { allow: allowed.join(", ") });
}

export function header(request: ServerRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** The body as text, or undefined where it is not UTF-8 (never silently repaired with U+FFFD). */
export function decodeUtf8(body: Buffer): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    return undefined;
  }
}
