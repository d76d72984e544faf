import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { tryClaim } from "./claims.ts";

test("a claimed key cannot be claimed again until it is released", () => {
  const root = mkdtempSync(join(tmpdir(), "sxd-claims-test-"));
  const release = tryClaim("http://h/notes/1", root);
  assert.ok(release);
  assert.equal(tryClaim("http://h/notes/1", root), undefined);
  assert.ok(tryClaim("http://h/notes/2", root), "another key is free");
  release();
  assert.ok(tryClaim("http://h/notes/1", root));
});

test("a claim left by a process that has died is taken over", () => {
  const root = mkdtempSync(join(tmpdir(), "sxd-claims-test-"));
  const release = tryClaim("k", root);
  assert.ok(release);
  const [dir] = readdirSync(root);
  // A finished child's pid is a process that no longer exists.
  const dead = spawnSync(process.execPath, ["-e", "0"]).pid;
  writeFileSync(join(root, dir, "pid"), String(dead));
  assert.ok(tryClaim("k", root));
});

test("a claim whose pid is not written yet is respected", () => {
  const root = mkdtempSync(join(tmpdir(), "sxd-claims-test-"));
  assert.ok(tryClaim("k", root));
  const [dir] = readdirSync(root);
  const other = mkdtempSync(join(tmpdir(), "sxd-claims-test-"));
  mkdirSync(join(other, dir));
  assert.equal(tryClaim("k", other), undefined);
});
