import assert from "node:assert/strict";
import { test } from "node:test";
import { withoutTrailingSlashes } from "./uri.ts";

test("a base URL loses its trailing slashes, and nothing else", () => {
  assert.equal(withoutTrailingSlashes("http://h:1/api//"), "http://h:1/api");
  assert.equal(withoutTrailingSlashes("http://h:1"), "http://h:1");
  assert.equal(withoutTrailingSlashes("/"), "");
});
