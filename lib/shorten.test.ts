import assert from "node:assert/strict";
import { test } from "node:test";
import { shorten } from "./shorten.ts";

test("a text within the limit is kept whole", () => {
  assert.equal(shorten("12345", 5), "12345");
  assert.equal(shorten("12345", 5, { sayLength: true }), "12345");
});

test("a cell is cut to the limit, the mark included", () => {
  assert.equal(shorten("123456", 5), "1234…");
});

test("a body keeps the limit and says how long it was", () => {
  assert.equal(shorten("123456", 5, { sayLength: true }), "12345… (6 characters in all)");
});
