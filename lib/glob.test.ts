import assert from "node:assert/strict";
import { test } from "node:test";
import { hasGlob, segmentMatcher } from "./glob.ts";

const matches = (pattern: string, names: string[]) => names.filter((name) => segmentMatcher(pattern)?.test(name));

test("a segment without a glob character is no pattern", () => {
  assert.equal(segmentMatcher("shards"), undefined);
  assert.equal(hasGlob("reports/shard-1"), false);
  assert.equal(hasGlob("reports/shard-*"), true);
});

test("* and ? match as in sh, never a leading dot unless the pattern has one", () => {
  const names = ["sxd-shard-1", "sxd-shard-12", "sxd-shard-", ".sxd-shard-1", "sxd-matrix"];
  assert.deepEqual(matches("sxd-shard-*", names), ["sxd-shard-1", "sxd-shard-12", "sxd-shard-"]);
  assert.deepEqual(matches("sxd-shard-?", names), ["sxd-shard-1"]);
  assert.deepEqual(matches("*", names), ["sxd-shard-1", "sxd-shard-12", "sxd-shard-", "sxd-matrix"]);
  assert.deepEqual(matches(".sxd-*", names), [".sxd-shard-1"]);
});

test("a set, a range and a negated set match one character; other characters are themselves", () => {
  const names = ["s1", "s2", "s3", "sa", "s.", "s+", "s(1)"];
  assert.deepEqual(matches("s[12]", names), ["s1", "s2"]);
  assert.deepEqual(matches("s[1-3]", names), ["s1", "s2", "s3"]);
  assert.deepEqual(matches("s[!1-3]", names), ["sa", "s.", "s+"]);
  assert.deepEqual(matches("s+*", names), ["s+"]);
  assert.deepEqual(matches("s(?)", names), ["s(1)"]);
  // A bracket that never closes is a bracket.
  assert.deepEqual(matches("s[*", ["s[1", "s1"]), ["s[1"]);
});
