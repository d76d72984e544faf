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

test("scenarios whose steps hold one shared thing never run at once; others run beside them", () => {
  const held = new Map([
    ["the client has read the export link", "the export user"],
    ["the client samples the list", "the export user"],
    ["a resource of its own", "a resource"],
  ]);
  const scenario = (...steps: string[]) => ({ tags: [], steps: steps.map((text) => ({ text })) });
  const exports = scenario("the servers", "the client has read the export link", "the client sends POST");
  const samples = scenario("the servers", "the client samples the list");
  const digest = scenario("the client logs in");
  const snapshot = scenario("a resource of its own");
  assert.equal(mayStartBeside(exports, [exports], held), false, "two exports");
  assert.equal(mayStartBeside(samples, [digest, exports], held), false, "a sample beside an export");
  assert.equal(mayStartBeside(exports, [digest, snapshot], held), true);
  assert.equal(mayStartBeside(digest, [exports, samples], held), true);
  assert.equal(mayStartBeside(snapshot, [snapshot], held), false);
  assert.equal(mayStartBeside(exports, [], held), true);
});
