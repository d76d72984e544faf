/**
 * Runs routes on a node:http server. Every thrown HttpError becomes its XML error reply;
 * anything else is a bug in the reference, logged and answered with 500 so the client is
 * never left hanging.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { errorReply, HttpError, type Reply, type Route, type ServerRequest } from "./reply.ts";

export const DEFAULT_BODY_LIMIT = 256 * 1024;

export interface ListenOptions {
  host: string;
  port: number;
  bodyLimit?: number;
}

export interface Listening {
  /** The URL the socket is bound to, e.g. `http://127.0.0.1:8080`. */
  boundUrl: string;
  server: Server;
  close(): Promise<void>;
}

export async function dispatch(routes: Route[], request: ServerRequest): Promise<Reply> {
  try {
    for (const route of routes) {
      const reply = await route(request);
      if (reply) return reply;
    }
    return errorReply(404, `nothing is served at ${request.path}`);
  } catch (error) {
    if (error instanceof HttpError) return errorReply(error.status, error.message, error.headers);
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
    incoming.on("error", reject);
  });
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, `request body is larger than the limit of ${limit} bytes`);
}

export function listen(routes: Route[], options: ListenOptions): Promise<Listening> {
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const server = createServer((incoming, outgoing) => {
    void answer(routes, incoming, outgoing, bodyLimit);
  });
  server.keepAliveTimeout = 2000;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      const { port } = server.address() as AddressInfo;
      const host = options.host.includes(":") ? `[${options.host}]` : options.host;
      resolve({
        boundUrl: `http://${host}:${port}`,
        server,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

async function answer(routes: Route[], incoming: IncomingMessage, outgoing: ServerResponse, bodyLimit: number) {
  const reply = await dispatch(routes, toServerRequest(incoming, bodyLimit));
  const body = reply.body ?? "";
  outgoing.statusCode = reply.status;
  for (const [name, value] of Object.entries(reply.headers ?? {})) outgoing.setHeader(name, value);
  if (reply.status !== 204 && reply.status !== 304) outgoing.setHeader("content-length", Buffer.byteLength(body));
  // A body we did not read would otherwise stall the keep-alive connection.
  if (!incoming.readableEnded) incoming.resume();
  outgoing.end(incoming.method === "HEAD" || reply.status === 204 ? undefined : body);
}
