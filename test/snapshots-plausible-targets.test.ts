// Snapshot rows on plausible servers that are not the bundled reference: a server whose
// collection is fixed (no creation; the description names existing resources instead), a
// server that refuses every update (its refusals of bad updates prove nothing: not run), and
// one whose ETags never match (the spec asks for If-Unmodified-Since only).
// Each is the reference behind a small proxy that changes what the test is about.
import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { type FixedResource, resolveDescription, type TargetDescription } from "../harness/description/target.ts";
import { prepareSubject } from "../harness/interop/subjects.ts";
import { loadRows } from "../harness/judging/catalogue.ts";
import { observationsOf } from "../harness/judging/outcomes.ts";
import { ATOM_ENTRY_TYPE } from "../lib/media-type.ts";
import { startReference } from "../reference/index.ts";
import { behaviourTags, rowsWith, runAgainstTarget } from "./support/suite.ts";

interface ProxyRules {
  /** PUT with If-None-Match: * answers 405: the collection is fixed. */
  refuseCreation?: boolean;
  /** Every other PUT answers 412, as from a broken precondition check. */
  refuseUpdates?: boolean;
  /** The ETags served are not the reference's, so no If-Match ever matches (ETags are not in the spec). */
  etagsNeverMatch?: boolean;
}

const ERROR_TYPE = "application/xml;charset=UTF-8";

/**
 * The reference's base server behind a proxy that applies the rules and rewrites its links;
 * `updates` holds the headers of every PUT it was sent.
 */
async function proxiedReference(rules: ProxyRules) {
  const reference = await startReference({
    host: "127.0.0.1",
    ports: { base: 0, contacts: 0, messaging: 0 },
    servers: ["base"],
  });
  const upstream = reference.urls.base;
  let url = "";
  const updates: IncomingHttpHeaders[] = [];
  const proxy = createServer((request, response) => {
    if (request.method === "PUT") updates.push(request.headers);
    forward(request, response, { upstream, url }, rules).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  return {
    url,
    upstream,
    updates,
    close: async () => {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
      await reference.close();
    },
  };
}

async function forward(
  request: IncomingMessage,
  response: ServerResponse,
  { upstream, url }: { upstream: string; url: string },
  rules: ProxyRules,
) {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  if (request.method === "PUT") {
    const creating = request.headers["if-none-match"] !== undefined;
    if (creating ? rules.refuseCreation : rules.refuseUpdates) {
      const [status, message] = creating ? [405, "resources cannot be created here"] : [412, "not today"];
      response.writeHead(status, { "content-type": ERROR_TYPE, ...(creating ? { allow: "GET, PUT, DELETE" } : {}) });
      response.end(`<?xml version="1.0"?><error><message>${message}</message></error>`);
      return;
    }
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === "string" && !["host", "connection", "content-length"].includes(name)) headers[name] = value;
  }
  const reply = await fetch(upstream + request.url, {
    method: request.method,
    headers,
    body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
  });
  const replyHeaders: Record<string, string> = {};
  reply.headers.forEach((value, name) => {
    if (!["connection", "content-length", "transfer-encoding", "keep-alive"].includes(name)) {
      replyHeaders[name] = value.replaceAll(upstream, url);
    }
    if (name === "etag" && rules.etagsNeverMatch) replyHeaders[name] = value.replace(/"$/, '-proxied"');
  });
  response.writeHead(reply.status, replyHeaders);
  response.end((await reply.text()).replaceAll(upstream, url));
}

const ENTRY = (n: number) =>
  `<entry xmlns="http://www.w3.org/2005/Atom"><author><name>Fixed</name></author><title>Note ${n}</title><id>urn:uuid:00000000-0000-4000-8000-00000000000${n}</id><content>note ${n}</content></entry>`;

/**
 * The resources a fixed collection has from the start, each with a snapshot already: two to
 * update, two the suite may delete.
 */
async function seed(upstream: string): Promise<FixedResource[]> {
  const resources: FixedResource[] = [
    { path: "/entries/note-1" },
    { path: "/entries/note-2", delete: false },
    { path: "/entries/note-3", delete: true },
    { path: "/entries/note-4", delete: true },
  ];
  for (const [i, { path }] of resources.entries()) {
    const put = (precondition: Record<string, string>) =>
      fetch(upstream + path, {
        method: "PUT",
        headers: { "content-type": ATOM_ENTRY_TYPE, ...precondition },
        body: ENTRY(i + 1),
      });
    assert.equal((await put({ "if-none-match": "*" })).status, 201);
    const etag = (await fetch(upstream + path)).headers.get("etag") ?? "";
    assert.equal((await put({ "if-match": etag })).status, 204);
  }
  return resources;
}

function describe(baseUrl: string, resources?: FixedResource[]): TargetDescription {
  const resolved = resolveDescription([{ baseUrl, snapshots: { collection: "/entries/" } }]);
  assert.ok(resolved.ok);
  return resources ? { ...resolved.value, snapshots: { ...resolved.value.snapshots, resources } } : resolved.value;
}

const SNAP = behaviourTags(
  "SNAP",
  loadRows().map((r) => r.id),
);
/** Every SNAP row but creation's (SNAP-13): each needs a resource to update. */
const UPDATING_ROWS = [...Array.from({ length: 12 }, (_, i) => `SNAP-${i + 1}`), "SNAP-14", "SNAP-15"].sort();

test("on a server whose collection is fixed, the SNAP rows run on the resources the description names", async () => {
  const server = await proxiedReference({ refuseCreation: true });
  try {
    const resources = await seed(server.upstream);
    const before = await runAgainstTarget(describe(server.url), { tags: SNAP, strict: true });
    assert.deepEqual(rowsWith(before, "not run"), UPDATING_ROWS, "without resources: not run");
    assert.deepEqual(rowsWith(before, "failed"), ["SNAP-13"]);
    for (const row of before.judgement.rows.filter((r) => UPDATING_ROWS.includes(r.row.id))) {
      assert.match(row.reason ?? "", /answered 405 \(SNAP-13\)/);
    }

    const after = await runAgainstTarget(describe(server.url, resources), { tags: SNAP, strict: true });
    assert.deepEqual(rowsWith(after, "passed"), UPDATING_ROWS);
    assert.deepEqual(rowsWith(after, "not applicable"), ["SNAP-13"]);
    assert.equal(after.judgement.overall, "conformant");
    // The suite updated the fixed resources (each scenario from the state the last one left)
    // and deleted only those it was allowed to.
    const kept = await fetch(`${server.url}/entries/note-1`);
    assert.equal(kept.status, 200);
    assert.match(await kept.text(), /rel="previous" href="[^"]*\/entries\/note-1\/s([2-9]|\d\d+)"/);
    for (const gone of ["note-3", "note-4"]) assert.equal((await fetch(`${server.url}/entries/${gone}`)).status, 404);
  } finally {
    await server.close();
  }
});

test("a description naming no resource the suite may delete leaves the DELETE row not run", async () => {
  const server = await proxiedReference({ refuseCreation: true });
  try {
    const resources = (await seed(server.upstream)).filter((r) => !r.delete);
    const run = await runAgainstTarget(describe(server.url, resources), { tags: "@SNAP-9", strict: true });
    assert.deepEqual(rowsWith(run, "not run"), ["SNAP-9"]);
    assert.match(run.judgement.rows.find((r) => r.row.id === "SNAP-9")?.reason ?? "", /"delete": true/);
  } finally {
    await server.close();
  }
});

test("on a server that refuses every update, bad, stale and racing updates are not run, never passed", async () => {
  const server = await proxiedReference({ refuseUpdates: true });
  try {
    const run = await runAgainstTarget(describe(server.url), {
      tags: "@SNAP-2 or @SNAP-11 or @SNAP-12 or @SNAP-15",
      strict: true,
    });
    assert.deepEqual(rowsWith(run, "failed"), ["SNAP-2"]);
    assert.deepEqual(rowsWith(run, "not run"), ["SNAP-11", "SNAP-12", "SNAP-15"]);
    for (const id of ["SNAP-11", "SNAP-12", "SNAP-15"]) {
      const row = run.judgement.rows.find((r) => r.row.id === id);
      assert.match(row?.reason ?? "", /see SNAP-2/);
      assert.ok(
        row?.scenarios.every((s) => s.status !== "passed"),
        `${id}: no case passed`,
      );
    }
  } finally {
    await server.close();
  }
});

test("on a server whose ETags never match, the chains are built with If-Unmodified-Since alone, as the spec asks", async () => {
  const server = await proxiedReference({ etagsNeverMatch: true });
  try {
    const run = await runAgainstTarget(describe(server.url), { tags: "@SNAP-2 or @SNAP-6", strict: true });
    assert.deepEqual(rowsWith(run, "passed"), ["SNAP-2", "SNAP-6"]);
    const walk = run.judgement.rows.find((r) => r.row.id === "SNAP-6")?.scenarios[0];
    assert.match(
      observationsOf(walk?.attachments ?? []).join("\n"),
      /refused sxd's update with If-Match .* sxd's later updates of \S+ send no If-Match/,
    );
  } finally {
    await server.close();
  }
});

test("sxd interop sets up its history entry there too, with If-Unmodified-Since alone: no update sends If-Match", async () => {
  const server = await proxiedReference({ etagsNeverMatch: true });
  try {
    const prepared = await prepareSubject("history", describe(server.url), 5000);
    assert.ok(prepared.ok, prepared.ok ? "" : prepared.problem);
    const read = await fetch(`${prepared.subject.url}/s2`);
    assert.equal(read.status, 200, "three versions: two snapshots");
    const updates = server.updates.filter((headers) => headers["if-none-match"] === undefined);
    assert.ok(updates.length >= 2, `${updates.length} updates`);
    for (const headers of updates) {
      assert.equal(headers["if-match"], undefined);
      assert.match(headers["if-unmodified-since"] ?? "", /GMT$/);
    }
  } finally {
    await server.close();
  }
});
