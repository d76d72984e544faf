import assert from "node:assert/strict";
import { test } from "node:test";
import { mayStartBeside } from "./alone.ts";

const plain = { tags: [{ name: "@EXP-4" }] };
const outage = { tags: [{ name: "@EXP-8" }, { name: "@alone" }] };

test("an @alone scenario starts only when nothing runs, and nothing starts beside it", () => {
  assert.equal(mayStartBeside(outage, []), true);
  assert.equal(mayStartBeside(outage, [plain]), false);
  assert.equal(mayStartBeside(plain, [outage]), false);
  assert.equal(mayStartBeside(plain, [plain]), true);
  assert.equal(mayStartBeside(plain, []), true);
});
