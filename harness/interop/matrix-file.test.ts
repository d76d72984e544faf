// A client's own time limit in the matrix file: read in milliseconds, or one line naming the key.
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { parseMatrix } from "./matrix-file.ts";

const folder = mkdtempSync(join(tmpdir(), "sxd-matrix-"));
writeFileSync(join(folder, "target.json"), JSON.stringify({ digest: { path: "/p", username: "u", password: "p" } }));
const file = join(folder, "matrix.json");
const matrix = (client: object) =>
  parseMatrix({ servers: { s: { url: "http://127.0.0.1:1", config: "target.json" } }, clients: { c: client } }, file);

test("a client's timeout is its own limit on a quiet machine; without one, --task-timeout is", () => {
  assert.equal(matrix({ run: "./c.sh", timeout: 30_000 }).clients[0]?.timeoutMs, 30_000);
  assert.equal(matrix({ run: "./c.sh" }).clients[0]?.timeoutMs, undefined);
});

test("a timeout that is not a whole number of milliseconds above 0 is a one-line error naming the key", () => {
  for (const timeout of [0, 1.5, "10s"])
    assert.throws(
      () => matrix({ run: "./c.sh", timeout }),
      /matrix\.json: clients\.c\.timeout must be a whole number above 0, got /,
    );
});

test("the matrix file is checked against schema/interop.schema.json: one line naming the key", () => {
  const servers = { s: { url: "http://127.0.0.1:1", config: "target.json" } };
  const cases: Array<[object, RegExp]> = [
    [
      { servers, clients: { c: { run: "./c.sh", tiemout: 1 } } },
      /clients\.c: unknown key "clients\.c\.tiemout" \(known: run, config, conformance, timeout\)|unknown key "clients\.c\.tiemout"/,
    ],
    [
      { servers, clients: { "my client": { run: "./c.sh" } } },
      /clients must be an object of names .* got the name "my client"/,
    ],
    [
      { servers: { s: { url: "127.0.0.1:1", config: "target.json" } }, clients: { c: { run: "x" } } },
      /servers\.s\.url must be an http\(s\) URL, got "127\.0\.0\.1:1"/,
    ],
    [
      { servers: { s: { start: "./s.sh", wait: 4000, config: "target.json" } }, clients: { c: { run: "x" } } },
      /servers\.s\.wait must be a number of seconds above 0, at most 3600, got 4000/,
    ],
    [{ servers, clients: { c: { run: "x" } }, extra: 1 }, /unknown key "extra" \(known: servers, clients\)/],
    [
      { servers: { s: { start: "./s.sh", url: "http://x:1", config: "target.json" } }, clients: { c: { run: "x" } } },
      /give either "url" \(running\) or "start"/,
    ],
  ];
  for (const [value, message] of cases)
    assert.throws(
      () => parseMatrix(value, file),
      (error: Error) => message.test(error.message) && !error.message.includes("\n"),
      JSON.stringify(value),
    );
  const commented = parseMatrix(
    { $comment: "ours", servers: { $comment: "x", ...servers }, clients: { c: { run: "x", $comment: "y" } } },
    file,
  );
  assert.deepEqual(
    commented.servers.map((s) => s.name),
    ["s"],
  );
});

test("the test's own matrix file passes the schema file, read by a validator of its own", async () => {
  const { Ajv2020 } = await import("ajv/dist/2020.js");
  const { readFileSync } = await import("node:fs");
  const { packageFile } = await import("../package.ts");
  const schema = JSON.parse(readFileSync(packageFile("schema/interop.schema.json"), "utf8"));
  const accepts = new Ajv2020({ allErrors: true }).compile(schema);
  const fixture = JSON.parse(readFileSync(packageFile("test/fixtures/interop/matrix.json"), "utf8"));
  assert.ok(accepts(fixture), JSON.stringify(accepts.errors));
  assert.equal(accepts({ servers: { s: { url: "http://x:1", config: "t.json", wait: 0 } }, clients: {} }), false);
});
