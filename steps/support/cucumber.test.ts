import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { test } from "node:test";
import * as door from "./cucumber.ts";

test("every function the step-definition door hands out is one cucumber's index has under the same name", () => {
  const cucumber = createRequire(import.meta.url)("@cucumber/cucumber");
  const functions = Object.entries(door).filter(([, value]) => typeof value === "function");
  assert.ok(functions.length >= 12);
  for (const [name] of functions) assert.equal(typeof cucumber[name], "function", name);
});
