import assert from "node:assert/strict";
import { test } from "node:test";
import { masked } from "./exchange.ts";

test("secret-looking header values are masked, the scheme kept; others are not", () => {
  assert.equal(masked("Authorization", "Bearer abc.def"), "Bearer •••");
  assert.equal(masked("X-Api-Key", "k-123"), "•••");
  assert.equal(masked("Cookie", "session=1"), "•••");
  assert.equal(masked("X-Auth-Token", "t"), "•••");
  assert.equal(masked("X-Tenant", "acme"), "acme");
});
