import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { test } from "node:test";
import { builder, World } from "./cucumber.ts";

test("the step-definition API is the one cucumber's index exports: same builder, same World", () => {
  const cucumber = createRequire(import.meta.url)("@cucumber/cucumber");
  assert.equal(builder, cucumber.supportCodeLibraryBuilder);
  assert.equal(World, cucumber.World);
  for (const name of ["After", "AfterAll", "Before", "BeforeAll", "Given", "Then", "When", "setWorldConstructor"]) {
    assert.equal(typeof (builder.methods as unknown as Record<string, unknown>)[name], "function", name);
  }
});
