import assert from "node:assert/strict";
import { test } from "node:test";
import { muchSlower } from "./entities.ts";

test("a reply counts as much slower than the plain update's only when both bounds are passed", () => {
  // Ten times slower, but quick: a fast server's jitter, not an expansion.
  assert.equal(muchSlower(900, 50), false);
  // Over two seconds, but no slower than the plain PUT: a slow server.
  assert.equal(muchSlower(2500, 400), false);
  assert.equal(muchSlower(2001, 200), true);
  // At the bounds themselves it is not yet much slower.
  assert.equal(muchSlower(2000, 100), false);
  assert.equal(muchSlower(3000, 300), false);
});
