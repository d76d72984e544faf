// overrides/regexp-match-indices stands in for the polyfill cucumber-expressions requires: it
// must be the one installed, and step arguments must keep their values and their offsets
// (cucumber reports where each argument starts in the step's text).
import assert from "node:assert/strict";
import { readFileSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { CucumberExpression, ParameterTypeRegistry, RegularExpression } from "@cucumber/cucumber-expressions";

// Its real path, as require resolves it, also where the tests run from their build (scripts/test-tree.mjs).
const ours = realpathSync(fileURLToPath(new URL("../overrides/regexp-match-indices/index.js", import.meta.url)));

test("cucumber-expressions still asks for the polyfill, and gets the native match indices", () => {
  const fromExpressions = createRequire(createRequire(import.meta.url).resolve("@cucumber/cucumber-expressions"));
  // Once cucumber-expressions stops asking, overrides/ and package.json's overrides can go.
  const manifest = JSON.parse(
    readFileSync(new URL("../node_modules/@cucumber/cucumber-expressions/package.json", import.meta.url), "utf8"),
  ) as { dependencies?: Record<string, string> };
  assert.ok(manifest.dependencies?.["regexp-match-indices"]);
  assert.equal(fromExpressions.resolve("regexp-match-indices"), ours);
});

test("a Cucumber Expression's arguments keep their values and where they start", () => {
  const expression = new CucumberExpression(
    "the client PUTs {string} with Content-Type {string} and {int} retries",
    new ParameterTypeRegistry(),
  );
  const text = 'the client PUTs "just some words" with Content-Type "text/plain" and 12 retries';
  const args = expression.match(text) ?? assert.fail("no match");
  assert.deepEqual(
    args.map((a) => a.getValue(null)),
    ["just some words", "text/plain", 12],
  );
  assert.deepEqual(
    args.map((a) => a.group.start),
    [text.indexOf('"just'), text.indexOf('"text'), text.indexOf("12")],
  );
});

test("a regular expression with nested, optional and non-capturing groups, and flags", () => {
  const expression = new RegularExpression(/^a (b(c)?)(?:d)? (\d+)$/i, new ParameterTypeRegistry());
  const args = expression.match("A bd 42") ?? assert.fail("no match");
  assert.deepEqual(
    args.map((a) => [a.group.value, a.group.start, (a.group.children ?? []).map((c) => c.start)]),
    [
      ["b", 2, [undefined]],
      ["42", 5, []],
    ],
  );
  assert.equal(expression.match("a c 1"), null);
});

test("the exec it exports is RegExp exec with indices, lastIndex included", () => {
  const exec = createRequire(import.meta.url)(ours) as (re: RegExp, s: string) => RegExpExecArray | null;
  const sticky = /o/gy;
  sticky.lastIndex = 1;
  const match = exec(sticky, "foo") ?? assert.fail("no match");
  assert.deepEqual(match.indices?.[0], [1, 2]);
  assert.equal(sticky.lastIndex, 2);
  assert.equal(exec(sticky, "fox"), null);
  assert.equal(sticky.lastIndex, 0);
});
