import assert from "node:assert/strict";
import { test } from "node:test";
import { type ScratchResource, snapshotUrl, versionNumbered } from "./snapshots.ts";

test("an update keeps exactly the fields it is told to keep", () => {
  const first = versionNumbered(1);
  const second = versionNumbered(2, first, ["author", "content"]);
  assert.equal(second.authorName, first.authorName);
  assert.deepEqual(second.content, first.content);
  assert.notEqual(second.title, first.title);
  const third = versionNumbered(3, second);
  assert.notEqual(third.authorName, second.authorName);
  assert.notEqual(third.content.text, second.content.text);
});

test("a scenario's snapshots continue the numbering of the resource it found", () => {
  const resource: ScratchResource = { url: "http://h/notes/1", id: "urn:x", versions: [], base: 7 };
  assert.equal(snapshotUrl(resource, 1), "http://h/notes/1/s8");
  assert.equal(snapshotUrl({ ...resource, base: 0 }, 1), "http://h/notes/1/s1");
});
