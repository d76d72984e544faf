/**
 * Small servers that misbehave on purpose, for the tests that run sxd against them: raw TCP
 * for replies that are not HTTP or come a byte at a time, node:http for huge, endless and
 * one-line replies.
 */
import { createServer as createHttpServer, type Server as HttpServer, type ServerResponse } from "node:http";
import { type AddressInfo, createServer, type Server, type Socket } from "node:net";

export interface HostileServer {
  url: string;
  close(): void;
}

/** A complete, empty HTTP reply: what a hostile server gives the probe before it turns. */
export const PROBE_REPLY = "HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n";

/** What a raw server does with a connection once the first bytes of a request came. */
export type Behaviour = (socket: Socket, requestNumber: number) => void;

/** A server that reads one request head per connection and hands the socket to a behaviour. */
export async function hostile(behaviour: Behaviour): Promise<HostileServer & { stopAfter(n: number): void }> {
  let count = 0;
  let limit = Number.POSITIVE_INFINITY;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined);
    socket.on("close", () => sockets.delete(socket));
    socket.once("data", () => {
      count++;
      if (count > limit) {
        server.close();
        socket.destroy();
        return;
      }
      behaviour(socket, count);
    });
  });
  return {
    url: await listen(server),
    close: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
    stopAfter: (n) => {
      limit = n;
    },
  };
}

/**
 * Holds this whole process for `ms`, as a long garbage collection or a busy machine does: its
 * timers and sockets wait, and the timers that came due meanwhile run first once it is free.
 */
export function holdProcess(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Busy: nothing else of this process runs.
  }
}

/** Writes `text` one byte a second until it is written or the client gives up. */
export function drip(socket: Socket, text: string): void {
  let at = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || at >= text.length) {
      clearInterval(timer);
      return;
    }
    socket.write(text[at++]);
  }, 1000);
  socket.on("close", () => clearInterval(timer));
}

/** A TLS record header as a TLS server's first answer starts (a handshake, TLS 1.2), then noise. */
export const TLS_HANDSHAKE = Buffer.from([
  0x16, 0x03, 0x03, 0x00, 0x31, 0x02, 0x00, 0x00, 0x2d, 0x03, 0x03, 0x5a, 0x17,
]);

/** An HTTP server from a request handler, with every connection cut on close. */
export async function httpHostile(handle: (path: string, reply: ServerResponse) => void): Promise<HostileServer> {
  const server = createHttpServer((request, reply) => {
    reply.on("error", () => undefined);
    handle(request.url ?? "/", reply);
  });
  const url = await listen(server);
  return {
    url,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/**
 * Streams `total` bytes of XML-looking text (Infinity: without end) as fast as the client
 * reads, from one small buffer, so the server's own memory stays flat.
 */
export function stream(reply: ServerResponse, total: number): void {
  const chunk = Buffer.from(`<contact name="${"x".repeat(60)}"/>\n`.repeat(1000));
  let sent = 0;
  const more = () => {
    while (sent < total && !reply.destroyed) {
      const piece = total - sent < chunk.length ? chunk.subarray(0, total - sent) : chunk;
      sent += piece.length;
      if (!reply.write(piece)) return void reply.once("drain", more);
    }
    if (sent >= total) reply.end();
  };
  more();
}

async function listen(server: Server | HttpServer): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
