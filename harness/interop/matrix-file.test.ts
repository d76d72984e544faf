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
      /client "c": timeout must be a whole number of milliseconds/,
    );
});
