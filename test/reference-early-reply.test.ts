// A reply sent before the request body has arrived must reach a client that is still sending
// (RFC 9112 §9.6, a lingering close): the 413 to an oversized upload is read, not lost to a
// reset; nothing of the upload is stored; a client that never stops sending is cut off.
// Real sockets throughout; no assertion on a duration (test timeouts only guard).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { ATOM_ENTRY_TYPE } from "../lib/media-type.ts";
import type { ReferenceContext } from "../reference/context.ts";
import { type LingerLimits, listen } from "../reference/http/serve.ts";
import { type RunningReference, startReference } from "../reference/index.ts";
import { snapshotRoutes } from "../reference/snapshots/routes.ts";
import { endlessChunkedRequest, openSocket, sendAllThenRead } from "./support/raw-http.ts";

const TEN_MIB = 10 * 1024 * 1024;
const CREATE_HEADERS = `content-type: ${ATOM_ENTRY_TYPE}\r\nif-none-match: *\r\n`;

/** python's http.client writes the whole body before it reads a byte of the reply. */
const PYTHON_PUT = `
import http.client, json, sys
url = sys.argv[1]
host, port = url.split("//")[1].split(":")
connection = http.client.HTTPConnection(host, int(port), timeout=30)
body = b"x" * ${TEN_MIB}
try:
    connection.request("PUT", "/entries/python-big", body=body,
                       headers={"Content-Type": "${ATOM_ENTRY_TYPE}", "If-None-Match": "*"})
    reply = connection.getresponse()
    print(json.dumps({"sent": len(body), "status": reply.status,
                      "connection": reply.getheader("Connection"), "body": reply.read().decode()}))
except OSError as error:
    print(json.dumps({"error": repr(error)}))
`;

describe("an upload larger than the limit", () => {
  let reference: RunningReference;
  let base: string;

  before(async () => {
    reference = await startReference({ host: "127.0.0.1", ports: { base: 0, contacts: 0, messaging: 0 } });
    base = reference.urls.base;
  });
  after(() => reference.close());

  it("gets a 413 with its XML error that python's http.client reads after sending all 10 MiB", async () => {
    const { stdout } = await promisify(execFile)("python3", ["-c", PYTHON_PUT, base]);
    const read = JSON.parse(stdout);
    assert.equal(read.error, undefined, stdout);
    assert.equal(read.sent, TEN_MIB);
    assert.equal(read.status, 413);
    assert.equal(read.connection, "close");
    assert.match(read.body, /<error><message>request body is larger than the limit of \d+ bytes<\/message><\/error>/);
    assert.equal((await fetch(`${base}/entries/python-big`)).status, 404);
  });

  it("gets a 413 that a raw socket reads once its whole 10 MiB is written, and nothing is stored", async () => {
    const head = `PUT /entries/raw-big HTTP/1.1\r\nhost: x\r\n${CREATE_HEADERS}content-length: ${TEN_MIB}\r\n\r\n`;
    const result = await sendAllThenRead(base, head, Buffer.alloc(TEN_MIB, "x"));
    assert.equal(result.error, undefined, `the client got ${result.error}`);
    assert.equal(result.written, head.length + TEN_MIB);
    assert.match(result.received, /^HTTP\/1\.1 413 /);
    assert.match(result.received, /\r\nconnection: close\r\n/i);
    assert.match(result.received, /\r\n\r\n<\?xml[\s\S]*<error><message>request body is larger/);
    assert.equal((await fetch(`${base}/entries/raw-big`)).status, 404);
  });
});

describe("the lingering close has bounds", () => {
  const context: ReferenceContext = {
    urls: { base: "", contacts: "", messaging: "" },
    faults: new Set(),
    variant: "standard",
  };
  const serverWith = (linger: LingerLimits) =>
    listen([snapshotRoutes(context)], { host: "127.0.0.1", port: 0, bodyLimit: 1024, linger, log: () => undefined });

  it("cuts off a client that keeps sending past the bytes it may drop", async () => {
    const listening = await serverWith({ maxBytes: 1024 * 1024, maxMs: 60_000 });
    try {
      const reply = await endlessChunkedRequest(listening.boundUrl, "PUT", "/entries/endless", [
        `content-type: ${ATOM_ENTRY_TYPE}`,
      ]);
      assert.match(reply.head, /^HTTP\/1\.1 413 /);
      await reply.closed;
      assert.ok(reply.written() > 1024 * 1024, `the client wrote ${reply.written()} bytes`);
    } finally {
      await listening.close();
    }
  });

  it("cuts off a client that keeps sending, slowly, past the time it may take", async () => {
    const listening = await serverWith({ maxBytes: TEN_MIB, maxMs: 200 });
    const socket = await openSocket(listening.boundUrl, true);
    socket.on("error", () => undefined);
    socket.write(`PUT /entries/slow HTTP/1.1\r\nhost: x\r\n${CREATE_HEADERS}transfer-encoding: chunked\r\n\r\n`);
    const trickle = setInterval(() => socket.write(`400\r\n${"x".repeat(0x400)}\r\n`), 10);
    try {
      let received = "";
      socket.on("data", (data: Buffer) => {
        received += data.toString("latin1");
      });
      await new Promise((resolve) => socket.once("close", resolve));
      assert.match(received, /^HTTP\/1\.1 413 /);
      assert.ok(socket.bytesWritten < TEN_MIB, `the client wrote ${socket.bytesWritten} bytes`);
    } finally {
      clearInterval(trickle);
      await listening.close();
    }
  });
});
