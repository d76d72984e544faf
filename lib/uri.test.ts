import assert from "node:assert/strict";
import { test } from "node:test";
import { isWellFormedUri, withoutTrailingSlashes } from "./uri.ts";

test("a base URL loses its trailing slashes, and nothing else", () => {
  assert.equal(withoutTrailingSlashes("http://h:1/api//"), "http://h:1/api");
  assert.equal(withoutTrailingSlashes("http://h:1"), "http://h:1");
  assert.equal(withoutTrailingSlashes("/"), "");
});

test("a well-formed URI has only URI characters, and each % starts an escape of two hex digits", () => {
  assert.equal(isWellFormedUri("http://h:1/user/ada/import;t=a%7Cb%2F%3d~.-_!$'()*+,=:@"), true);
  for (const bad of [
    "http://h/x;t=m2%3Gdq",
    "http://h/x;t=ab%",
    "http://h/x;t=%7",
    "http://h/a b",
    "http://h/\u00e9",
    "/x",
  ])
    assert.equal(isWellFormedUri(bad), false, bad);
});
