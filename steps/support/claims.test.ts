import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { scratchDir } from "../../test/support/scratch.ts";
import { tryClaim } from "./claims.ts";

/** A new empty folder, removed when this process exits. */
const scratch = () => scratchDir("sxd-claims-test-");

test("a claimed key cannot be claimed again until it is released", () => {
  const root = scratch();
  const release = tryClaim("http://h/notes/1", root);
  assert.ok(release);
  assert.equal(tryClaim("http://h/notes/1", root), undefined);
  assert.ok(tryClaim("http://h/notes/2", root), "another key is free");
  release();
  const again = tryClaim("http://h/notes/1", root);
  assert.ok(again);
  assert.equal(readdirSync(root).length, 2);
});

test("the last release removes the claims' folder: a run leaves nothing behind", () => {
  const root = join(scratch(), "claims");
  const first = tryClaim("http://h/notes/1", root);
  const second = tryClaim("http://h/notes/2", root);
  assert.ok(first && second);
  first();
  assert.equal(readdirSync(root).length, 1, "a claim still held keeps the folder");
  second();
  assert.equal(existsSync(root), false);
  assert.ok(tryClaim("http://h/notes/1", root), "a later claim makes it again");
});

test("a claim left by a process that has died is taken over", () => {
  const root = scratch();
  const release = tryClaim("k", root);
  assert.ok(release);
  const [dir] = readdirSync(root);
  // A finished child's pid is a process that no longer exists.
  const dead = spawnSync(process.execPath, ["-e", "0"]).pid;
  writeFileSync(join(root, dir, "pid"), String(dead));
  assert.ok(tryClaim("k", root));
});

test("a claim whose pid is not written yet is respected", () => {
  const root = scratch();
  assert.ok(tryClaim("k", root));
  const [dir] = readdirSync(root);
  const other = scratch();
  mkdirSync(join(other, dir));
  assert.equal(tryClaim("k", other), undefined);
});
