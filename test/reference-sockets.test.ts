// The reference's sockets: an upload cut off halfway, a connection flood past the cap, a close
// with a grace period, and `sxd serve` taking a SIGTERM mid-request. Every case talks to real
// sockets; none asserts a duration (test timeouts only guard).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { ATOM_ENTRY_TYPE } from "../lib/media-type.ts";
import { type Listening, listen } from "../reference/http/serve.ts";
import { snapshotRoutes } from "../reference/snapshots/routes.ts";
import { SXD } from "./support/cli.ts";
import { entry, openSocket } from "./support/raw-http.ts";

describe("the reference's sockets", () => {
  let listening: Listening;
  const logged: string[] = [];
  const errors: unknown[] = [];
  const consoleError = console.error;

  before(async () => {
    console.error = (...args: unknown[]) => errors.push(args);
    const context = {
      urls: { base: "", contacts: "", messaging: "" },
      faults: new Set([]),
      variant: "standard" as const,
    };
    listening = await listen([snapshotRoutes(context)], {
      host: "127.0.0.1",
      port: 0,
      maxConnections: 2,
      log: (line) => logged.push(line),
    });
  });
  after(async () => {
    console.error = consoleError;
    await listening.close();
  });

  it("logs an upload cut off mid-body as one line, and answers nothing", async () => {
    logged.length = 0;
    const socket = await openSocket(listening.boundUrl);
    socket.write(
      `PUT /entries/cut HTTP/1.1\r\nhost: x\r\ncontent-type: ${ATOM_ENTRY_TYPE}\r\nif-none-match: *\r\ncontent-length: 5000\r\n\r\n<entry`,
    );
    let answered = "";
    socket.on("data", (data: Buffer) => {
      answered += data.toString();
    });
    // Wait until the server is reading the body (it answers nothing before), then hang up.
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    while (logged.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(logged.length, 1, logged.join("\n"));
    assert.doesNotMatch(logged[0], /\n/);
    assert.match(logged[0], /PUT \/entries\/cut: the client closed the connection after 6 bytes/);
    assert.equal(answered, "");
    assert.deepEqual(errors, []);
  });

  it("refuses connections past the cap and says so once in the log", async () => {
    logged.length = 0;
    const held = [await openSocket(listening.boundUrl), await openSocket(listening.boundUrl)];
    const refused = await Promise.all([1, 2, 3].map(() => openSocket(listening.boundUrl)));
    await Promise.all(refused.map((socket) => new Promise((resolve) => socket.once("close", resolve))));
    assert.equal(logged.length, 1, logged.join("\n"));
    assert.match(logged[0], /connection cap of 2 reached/);
    for (const socket of held) socket.destroy();
    // The next test needs a free slot: wait until the server has seen these go.
    const open = () => new Promise<number>((resolve) => listening.server.getConnections((_, n) => resolve(n)));
    while ((await open()) > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  });

  it("lets a request in flight finish when closed with a grace period", async () => {
    const socket = await openSocket(listening.boundUrl);
    const body = entry("graceful");
    socket.write(
      `PUT /entries/graceful HTTP/1.1\r\nhost: x\r\ncontent-type: ${ATOM_ENTRY_TYPE}\r\nif-none-match: *\r\ncontent-length: ${body.length}\r\n\r\n`,
    );
    let answered = "";
    socket.on("data", (data: Buffer) => {
      answered += data.toString();
    });
    const closedSocket = new Promise((resolve) => socket.once("close", resolve));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closing = listening.close(5000);
    socket.write(body);
    await closing;
    await closedSocket;
    assert.match(answered, /^HTTP\/1\.1 201 /);
  });
});

describe("sxd serve and SIGTERM", () => {
  it("lets a request in flight finish, then exits 0", async () => {
    const child = spawn(process.execPath, [SXD, "serve", "base", "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    let output = "";
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (data: Buffer) => {
        output += data.toString();
        const found = /(http:\/\/127\.0\.0\.1:\d+)\n/.exec(output);
        if (found) resolve(found[1]);
      });
      exited.then((code) => reject(new Error(`sxd serve exited (${code}) before listening: ${output}`)));
    });
    const socket = await openSocket(url);
    const body = entry("in flight");
    socket.write(
      `PUT /entries/in-flight HTTP/1.1\r\nhost: x\r\ncontent-type: ${ATOM_ENTRY_TYPE}\r\nif-none-match: *\r\ncontent-length: ${body.length}\r\n\r\n`,
    );
    let answered = "";
    socket.on("data", (data: Buffer) => {
      answered += data.toString();
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.write(body);
    assert.equal(await exited, 0);
    assert.match(answered, /^HTTP\/1\.1 201 /);
  });
});
