/**
 * Runs routes on a node:http server. Every thrown HttpError becomes its XML error reply;
 * anything else is a bug in the reference, logged and answered with 500 so the client is
 * never left hanging.
 *
 * Against any client: a reply sent before the request body has fully arrived (413, or a
 * route that needs no body) closes the connection, but only after reading and dropping what
 * is still coming, within bounds (a lingering close, RFC 9112 §9.6): a client that sends its
 * whole body before reading reads the reply instead of a reset, and a body that never ends
 * is cut off. A client that disconnects mid-body costs one log line; connections are capped
 * and slow headers time out, and hitting the cap is logged.
 */
import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { errorReply, HttpError, type Reply, type Route, type ServerRequest } from "./reply.ts";

export const DEFAULT_BODY_LIMIT = 256 * 1024;
export const DEFAULT_MAX_CONNECTIONS = 1000;
/**
 * Longer than clients' idle limits matter: undici keeps a connection only while the server's
 * `Keep-Alive: timeout` hint leaves it more than a second, so a short one means a new
 * connection per request.
 */
const KEEP_ALIVE_TIMEOUT_MS = 10_000;
const HEADERS_TIMEOUT_MS = 10_000;
/** How long the process-wide log stays quiet after saying the connection cap was hit. */
const CAP_LOG_INTERVAL_MS = 10_000;

/** After a reply sent before the request body was complete: how much more of it is read and dropped, and for how long. */
export interface LingerLimits {
  maxBytes: number;
  maxMs: number;
}
/**
 * Room for the uploads a client may sensibly try (a few times the body limit) at loopback or
 * LAN speed; what keeps sending after that is cut off with a reset.
 */
export const DEFAULT_LINGER: LingerLimits = { maxBytes: 64 * 1024 * 1024, maxMs: 5000 };

export interface ListenOptions {
  host: string;
  port: number;
  bodyLimit?: number;
  /** Connections open at once; more are refused at once (default DEFAULT_MAX_CONNECTIONS). */
  maxConnections?: number;
  /** Where one-line notices go (client aborts, the connection cap); default stderr. */
  log?: (line: string) => void;
  /** The lingering close after an early reply; default DEFAULT_LINGER. */
  linger?: LingerLimits;
}

export interface Listening {
  /** The URL the socket is bound to, e.g. `http://127.0.0.1:8080`. */
  boundUrl: string;
  server: Server;
  /**
   * Stops accepting connections. Requests in flight get up to `graceMs` to finish (their
   * connections then close); default 0: every connection is closed at once.
   */
  close(graceMs?: number): Promise<void>;
}

/** The client went away before its request body was complete: nobody is left to answer. */
class ClientGone extends Error {}

export async function dispatch(routes: Route[], request: ServerRequest): Promise<Reply> {
  try {
    for (const route of routes) {
      // A route that answered at once is not awaited: no turn of the microtask queue per route.
      const answered = route(request);
      const reply = answered instanceof Promise ? await answered : answered;
      if (reply) return reply;
    }
    return errorReply(404, `nothing is served at ${request.path}`);
  } catch (error) {
    if (error instanceof HttpError) return errorReply(error.status, error.message, error.headers);
    if (error instanceof ClientGone) throw error;
    console.error("sxd reference: unexpected error", error);
    return errorReply(500, "internal error in the reference server");
  }
}

export function toServerRequest(incoming: IncomingMessage, bodyLimit: number): ServerRequest {
  const target = incoming.url ?? "/";
  const queryAt = target.indexOf("?");
  const path = queryAt < 0 ? target : target.slice(0, queryAt);
  let bodyPromise: Promise<Buffer> | undefined;
  return {
    method: incoming.method ?? "GET",
    target,
    path,
    headers: incoming.headers,
    body() {
      bodyPromise ??= readBody(incoming, bodyLimit);
      return bodyPromise;
    },
  };
}

function readBody(incoming: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(incoming.headers["content-length"] ?? "0");
  if (declared > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    incoming.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        incoming.removeAllListeners("data");
        incoming.resume();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    incoming.on("end", () => resolve(Buffer.concat(chunks)));
    incoming.on("error", () =>
      reject(new ClientGone(`the client closed the connection after ${size} bytes of the body`)),
    );
  });
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, `request body is larger than the limit of ${limit} bytes`);
}

export function listen(routes: Route[], options: ListenOptions): Promise<Listening> {
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const linger = options.linger ?? DEFAULT_LINGER;
  const server = createServer(
    {
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      headersTimeout: HEADERS_TIMEOUT_MS,
      requestTimeout: 60_000,
      // How often the two timeouts above are checked (default 30 s, which would let them run late).
      connectionsCheckingInterval: 1000,
    },
    (incoming, outgoing) => {
      answer(routes, incoming, outgoing, bodyLimit, linger).catch((error: unknown) => {
        const gone = error instanceof ClientGone ? error.message : `the reply failed: ${String(error)}`;
        log(`sxd reference: ${incoming.method} ${incoming.url}: ${gone}`);
        incoming.socket.destroy();
      });
    },
  );
  server.maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  let capLoggedAt = Number.NEGATIVE_INFINITY;
  let dropped = 0;
  server.on("drop", () => {
    dropped++;
    if (Date.now() - capLoggedAt < CAP_LOG_INTERVAL_MS) return;
    capLoggedAt = Date.now();
    log(
      `sxd reference: connection cap of ${server.maxConnections} reached; refused ${dropped} connection(s) (quiet for ${CAP_LOG_INTERVAL_MS / 1000} s)`,
    );
    dropped = 0;
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      const { port } = server.address() as AddressInfo;
      const host = options.host.includes(":") ? `[${options.host}]` : options.host;
      resolve({
        boundUrl: `http://${host}:${port}`,
        server,
        close: (graceMs = 0) =>
          new Promise<void>((done) => {
            const force = setTimeout(() => server.closeAllConnections(), graceMs);
            server.close(() => {
              clearTimeout(force);
              done();
            });
            server.closeIdleConnections();
            if (graceMs === 0) server.closeAllConnections();
          }),
      });
    });
  });
}

async function answer(
  routes: Route[],
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  bodyLimit: number,
  linger: LingerLimits,
) {
  const reply = await dispatch(routes, toServerRequest(incoming, bodyLimit));
  const body = reply.body ?? "";
  // One writeHead with every field: cheaper than a setHeader per field on the hot path. Names
  // in lower case, so that the length and connection set below replace a route's own.
  const headers: OutgoingHttpHeaders = {};
  for (const name in reply.headers) headers[name.toLowerCase()] = reply.headers[name];
  if (reply.status !== 204 && reply.status !== 304) headers["content-length"] = Buffer.byteLength(body);
  const payload = incoming.method === "HEAD" || reply.status === 204 ? undefined : body;
  if (incoming.complete) {
    // Whatever of the body nobody read is already here: drop it and keep the connection.
    incoming.resume();
    outgoing.writeHead(reply.status, headers).end(payload);
    return;
  }
  // The body is still coming, maybe forever: answer, then close rather than read it all.
  headers.connection = "close";
  lingerAfterReply(incoming, linger);
  outgoing.writeHead(reply.status, headers).end(payload);
}

/**
 * Closing a socket while the client's data is still arriving makes the kernel send a reset,
 * and the client loses the reply it had not read yet. So only our side is closed once the
 * reply is out; what the client still sends is read and dropped until it closes its side
 * (then the socket goes by itself) or passes a bound (then it is cut off).
 */
function lingerAfterReply(incoming: IncomingMessage, limits: LingerLimits): void {
  const socket = incoming.socket;
  const cutOff = () => socket.destroy();
  const timer = setTimeout(cutOff, limits.maxMs);
  socket.once("close", () => clearTimeout(timer));
  let dropped = 0;
  incoming.removeAllListeners("data");
  incoming.on("data", (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > limits.maxBytes) cutOff();
  });
  incoming.resume();
  // node ends a `Connection: close` reply with socket.destroySoon(), which closes both ways
  // once the reply is written: the reset above. Ending only our side is the staged close.
  socket.destroySoon = () => socket.end();
}
