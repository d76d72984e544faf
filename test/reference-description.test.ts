/**
 * Three places say what the bundled reference is: its own literals (reference/index.ts), the
 * harness's defaults for a silent description, and examples/reference.json for `sxd serve`.
 * The reference does not import the harness, so this test is what keeps them one story.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { REFERENCE_DEFAULTS, resolveDescription } from "../harness/target.ts";
import { parseDescription } from "../harness/target-check.ts";
import { REFERENCE_DESCRIPTION } from "../reference/index.ts";

test("examples/reference.json states what the reference says of itself", () => {
  const text = readFileSync(new URL("../examples/reference.json", import.meta.url), "utf8");
  const parsed = parseDescription(text, "examples/reference.json");
  assert.ok(parsed.ok);
  const bundled = resolveDescription([REFERENCE_DESCRIPTION, { baseUrl: "http://h" }]);
  assert.ok(bundled.ok);
  assert.deepEqual(parsed.value.digest, bundled.value.digest);
  assert.deepEqual(parsed.value.export, bundled.value.export);
  assert.deepEqual(parsed.value.snapshots, bundled.value.snapshots);
});

test("a silent description defaults to the reference's own paths and users", () => {
  assert.equal(REFERENCE_DEFAULTS.snapshots.collection, REFERENCE_DESCRIPTION.snapshots.collection);
  assert.equal(REFERENCE_DEFAULTS.digest.path, REFERENCE_DESCRIPTION.digest.path);
  assert.equal(REFERENCE_DEFAULTS.digest.username, REFERENCE_DESCRIPTION.digest.username);
  assert.equal(REFERENCE_DEFAULTS.digest.password, REFERENCE_DESCRIPTION.digest.password);
  assert.equal(REFERENCE_DEFAULTS.export.user, REFERENCE_DESCRIPTION.export.user);
});
