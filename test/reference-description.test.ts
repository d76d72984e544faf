/**
 * Two places say what the bundled reference is: its own literals (reference/index.ts) and
 * examples/reference.json for `sxd serve`; both state every key (a silent description has none).
 * The reference does not import the harness, so this test is what keeps them one story.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { type Behaviour, resolveDescription, unstatedKeys } from "../harness/description/target.ts";
import { parseDescription } from "../harness/description/target-check.ts";
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

test("the reference's description, and examples/reference.json, state every key a behaviour needs", () => {
  const text = readFileSync(new URL("../examples/reference.json", import.meta.url), "utf8");
  const example = parseDescription(text, "examples/reference.json");
  assert.ok(example.ok);
  // Where the servers listen is the run's to say (the reference's own has no URL): given here.
  const urls = { baseUrl: "http://h", contactsUrl: "http://c", messagingUrl: "http://m" };
  for (const layer of [REFERENCE_DESCRIPTION, example.value]) {
    const described = resolveDescription([layer, urls]);
    assert.ok(described.ok);
    for (const behaviour of ["snapshots", "digest", "export"] satisfies Behaviour[])
      assert.deepEqual(unstatedKeys(described.value, behaviour), [], behaviour);
  }
});
