// The reference against clients that misbehave: storage floods, bodies that never end,
// characters XML forbids, uploads cut off halfway, connection floods, a SIGTERM mid-request.
// Every case talks to real sockets; none asserts a duration (test timeouts only guard).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { ATOM_ENTRY_TYPE } from "../lib/media-type.ts";
import { type Listening, listen } from "../reference/http/serve.ts";
import { type RunningReference, startReference } from "../reference/server.ts";
import { snapshotRoutes } from "../reference/snapshots/routes.ts";
import { DEFAULT_STORAGE_LIMITS } from "../reference/snapshots/store.ts";
import { SXD } from "./support/cli.ts";
import { endlessChunkedRequest, openSocket } from "./support/raw-client.ts";

const ENTRY_ID = "urn:uuid:5d0c1f0e-0000-4000-8000-0000000000aa";

function entry(content: string): string {
  return `<entry xmlns="http://www.w3.org/2005/Atom"><author><name>Ada</name></author><title>t</title><id>${ENTRY_ID}</id><content>${content}</content></entry>`;
}

const CREATE = { "content-type": ATOM_ENTRY_TYPE, "if-none-match": "*" };

describe("the reference against misbehaving clients", () => {
  let reference: RunningReference;
  let base: string;

  before(async () => {
    reference = await startReference({
      host: "127.0.0.1",
      ports: { base: 0, contacts: 0, messaging: 0 },
      storage: { maxBytes: 64 * 1024, maxResources: 3, maxSnapshots: 2 },
    });
    base = reference.urls.base;
  });
  after(() => reference.close());

  const put = (path: string, headers: Record<string, string>, body: string) =>
    fetch(`${base}${path}`, { method: "PUT", headers, body });

  it("answers 507 with the XML error body at each storage limit, and stores nothing of the refused request", async () => {
    // Bytes: one entry larger than the whole store.
    const huge = await put("/entries/huge", CREATE, entry("x".repeat(100 * 1024)));
    assert.equal(huge.status, 507);
    assert.match(await huge.text(), /<error><message>[^<]*storage limit/);
    assert.equal((await fetch(`${base}/entries/huge`)).status, 404);

    // Resources: three fit, the fourth is refused; deleting one makes room again.
    for (const name of ["r1", "r2", "r3"])
      assert.equal((await put(`/entries/${name}`, CREATE, entry(name))).status, 201);
    const fourth = await put("/entries/r4", CREATE, entry("r4"));
    assert.equal(fourth.status, 507);
    assert.match(fourth.headers.get("content-type") ?? "", /xml/);
    assert.match(await fourth.text(), /<error><message>[^<]*3 resources/);
    assert.equal((await fetch(`${base}/entries/r4`)).status, 404);
    assert.equal((await fetch(`${base}/entries/r3`, { method: "DELETE" })).status, 204);
    assert.equal((await put("/entries/r4", CREATE, entry("r4"))).status, 201);

    // Snapshots: two updates keep s1 and s2; the third is refused and changes nothing.
    for (const content of ["u1", "u2"]) {
      const etag = (await fetch(`${base}/entries/r1`)).headers.get("etag") ?? "";
      const updated = await put("/entries/r1", { "content-type": ATOM_ENTRY_TYPE, "if-match": etag }, entry(content));
      assert.equal(updated.status, 204);
    }
    const etag = (await fetch(`${base}/entries/r1`)).headers.get("etag") ?? "";
    const third = await put("/entries/r1", { "content-type": ATOM_ENTRY_TYPE, "if-match": etag }, entry("u3"));
    assert.equal(third.status, 507);
    assert.match(await third.text(), /2 snapshots/);
    const current = await fetch(`${base}/entries/r1`);
    assert.equal(current.headers.get("etag"), etag);
    assert.match(await current.text(), /<content>u2<\/content>/);
    assert.equal((await fetch(`${base}/entries/r1/s3`)).status, 404);
  });

  it("refuses characters XML forbids with 400 and stores nothing", async () => {
    const forbidden = ["&#0;", "\u0001", "&#x1B;", "\uFFFE", "&#xD800;"];
    for (const [i, bad] of forbidden.entries()) {
      const path = `/entries/bad-${i}`;
      const reply = await put(path, CREATE, entry(`a${bad}b`));
      assert.equal(reply.status, 400, JSON.stringify(bad));
      assert.match(await reply.text(), /<error><message>/);
      assert.equal((await fetch(`${base}${path}`)).status, 404, JSON.stringify(bad));
    }
    // A lone surrogate written out: its UTF-8 form (ED A0 80) is not UTF-8, refused, not replaced.
    const lone = Buffer.concat([Buffer.from(entry("a").replace("a</content>", "")), Buffer.from([0xed, 0xa0, 0x80])]);
    const reply = await fetch(`${base}/entries/bad-lone`, {
      method: "PUT",
      headers: CREATE,
      body: Buffer.concat([lone, Buffer.from("</content></entry>")]),
    });
    assert.equal(reply.status, 400);
    assert.equal((await fetch(`${base}/entries/bad-lone`)).status, 404);
  });

  it("closes the connection after a 413 instead of reading a chunked body that never ends", async () => {
    const reply = await endlessChunkedRequest(base, "PUT", "/entries/endless", [`content-type: ${ATOM_ENTRY_TYPE}`]);
    assert.match(reply.head, /^HTTP\/1\.1 413 /);
    assert.match(reply.head, /\r\nconnection: close/i);
    await reply.closed;
  });

  it("answers the import POST and closes the connection instead of reading a body that never ends", async () => {
    const list = await (await fetch(`${reference.urls.contacts}/user/alice/contacts`)).text();
    const href = /href="([^"]*\/import[^"]*)"/.exec(list)?.[1];
    assert.ok(href, list);
    const link = new URL(href.replace(/&amp;/g, "&"));
    const reply = await endlessChunkedRequest(reference.urls.messaging, "POST", link.pathname + link.search, []);
    assert.match(reply.head, /^HTTP\/1\.1 303 /);
    assert.match(reply.head, /\r\nconnection: close/i);
    await reply.closed;
  });
});

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

  it("answers 507 to an upload or an export past the messaging server's limit of users, and holds nothing for that user", async () => {
    // A reference of its own: the messaging server holds contacts for at most two users.
    const full = await startReference({
      host: "127.0.0.1",
      ports: { base: 0, contacts: 0, messaging: 0 },
      storage: { ...DEFAULT_STORAGE_LIMITS, maxResources: 2 },
    });
    const upload = (user: string) =>
      fetch(`${full.urls.messaging}/user/${user}/contacts`, {
        method: "POST",
        headers: { "content-type": "application/xml" },
        body: "<contacts><contact><name>Ann</name></contact></contacts>",
        redirect: "manual",
      });
    try {
      const statuses: number[] = [];
      for (const user of ["u1", "u2", "u3"]) statuses.push((await upload(user)).status);
      assert.deepEqual(statuses, [303, 303, 507]);
      assert.equal((await fetch(`${full.urls.messaging}/user/u3`)).status, 404);
      // The export link makes the messaging server fetch and store the list itself: the same limit.
      const list = await (await fetch(`${full.urls.contacts}/user/alice/contacts`)).text();
      const link = /href="([^"]*\/import[^"]*)"/.exec(list)?.[1];
      assert.ok(link, list);
      const exported = await fetch(link.replaceAll("&amp;", "&"), { method: "POST", redirect: "manual" });
      assert.equal(exported.status, 507);
      assert.match(await exported.text(), /<error><message>[^<]*2 users/);
      assert.equal((await fetch(`${full.urls.messaging}/user/alice`)).status, 404);
    } finally {
      await full.close();
    }
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
