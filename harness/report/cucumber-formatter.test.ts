import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { test } from "node:test";
import { Formatter } from "./cucumber-formatter.ts";

test("the formatter base class is the one cucumber's index exports", () => {
  assert.equal(Formatter, createRequire(import.meta.url)("@cucumber/cucumber").Formatter);
});
