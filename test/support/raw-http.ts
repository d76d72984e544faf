/**
 * Raw HTTP for the reference's hardening tests: an Atom entry to store, a socket of one's own,
 * and a request whose body never ends, where fetch would not let a test misbehave.
 */
import { connect, type Socket } from "node:net";
import { ATOM_ENTRY_TYPE } from "../../lib/media-type.ts";

const ENTRY_ID = "urn:uuid:5d0c1f0e-0000-4000-8000-0000000000aa";

export function entry(content: string): string {
  return `<entry xmlns="http://www.w3.org/2005/Atom"><author><name>Ada</name></author><title>t</title><id>${ENTRY_ID}</id><content>${content}</content></entry>`;
}

/** Headers that create an entry where none is. */
export const CREATE = { "content-type": ATOM_ENTRY_TYPE, "if-none-match": "*" };

export interface RawReply {
  /** The status line and headers, as received. */
  head: string;
  /** Resolves once the server has closed the connection. */
  closed: Promise<void>;
  /** Bytes of the request written so far, head included. */
  written(): number;
}

/** `keepSending`: the server's end of its side (FIN) does not end ours, as with a client that ignores it. */
export function openSocket(url: string, keepSending = false): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ port: Number(port), host: hostname, allowHalfOpen: keepSending }, () => resolve(socket));
    socket.once("error", reject);
  });
}

/**
 * Sends a request head, then body chunks for as long as the socket takes them (a body that
 * never ends), whatever the server says or closes; resolves with the reply head as soon as
 * it arrives.
 */
export function endlessChunkedRequest(url: string, method: string, path: string, headers: string[]): Promise<RawReply> {
  const { hostname, port } = new URL(url);
  const socket = connect({ port: Number(port), host: hostname, allowHalfOpen: true });
  socket.on("error", () => undefined);
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  const chunk = `4000\r\n${"x".repeat(0x4000)}\r\n`;
  const pump = () => {
    while (!socket.destroyed && socket.write(chunk));
  };
  socket.on("drain", pump);
  socket.write(
    `${method} ${path} HTTP/1.1\r\nhost: ${hostname}\r\ntransfer-encoding: chunked\r\n${headers.map((h) => `${h}\r\n`).join("")}\r\n`,
  );
  pump();
  return new Promise((resolve, reject) => {
    let received = "";
    socket.on("data", (data: Buffer) => {
      received += data.toString("latin1");
      const end = received.indexOf("\r\n\r\n");
      if (end >= 0) resolve({ head: received.slice(0, end), closed, written: () => socket.bytesWritten });
    });
    closed.then(() => reject(new Error(`closed without a reply head; got ${JSON.stringify(received)}`)));
  });
}

/**
 * Writes a whole request, head and body, and only once the last byte is handed to the kernel
 * starts reading: a client that never looks at the reply while it sends. Resolves with
 * everything read until the server closed, or with the error that ended the connection.
 */
export async function sendAllThenRead(
  url: string,
  head: string,
  body: Buffer,
): Promise<{ written: number; received: string; error?: string }> {
  const socket = await openSocket(url);
  socket.pause();
  const chunks: Buffer[] = [];
  let error: string | undefined;
  socket.on("error", (e: NodeJS.ErrnoException) => {
    error = e.code ?? e.message;
  });
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  socket.write(head);
  socket.write(body, () => {
    socket.on("data", (data: Buffer) => chunks.push(data));
    socket.resume();
  });
  await closed;
  return { written: socket.bytesWritten, received: Buffer.concat(chunks).toString("latin1"), error };
}
