import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { test } from "node:test";
import * as door from "./cucumber.ts";
import { builder, World } from "./cucumber.ts";

test("the step-definition API is the one cucumber's index exports: same builder, same World", () => {
  const cucumber = createRequire(import.meta.url)("@cucumber/cucumber");
  assert.equal(builder, cucumber.supportCodeLibraryBuilder);
  assert.equal(World, cucumber.World);
  // Every function the door hands out is one the index has under the same name.
  const functions = Object.entries(door).filter(([name, value]) => typeof value === "function" && name !== "World");
  assert.ok(functions.length >= 11);
  for (const [name] of functions) assert.equal(typeof cucumber[name], "function", name);
});
