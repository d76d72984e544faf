// The tests' own tree (scripts/test-tree.mjs): the relative .ts specifiers of esbuild's output
// name the compiled .js files, as tsc's rewriteRelativeImportExtensions does, and nothing else.
import assert from "node:assert/strict";
import { test } from "node:test";
// @ts-expect-error: a script of the project's own, in JavaScript without declarations
import { withJsSpecifiers } from "../scripts/test-tree.mjs";

test("imports, re-exports and dynamic imports of relative .ts modules name their .js", () => {
  const code = [
    'import { a } from "./a.ts";',
    'import * as b from "../lib/b.ts";',
    'import "./side-effect.ts";',
    'export { c } from "./c.ts";',
    'export * from "../../d.ts";',
    'const e = await import("./e.ts");',
  ].join("\n");
  assert.equal(
    withJsSpecifiers(code),
    [
      'import { a } from "./a.js";',
      'import * as b from "../lib/b.js";',
      'import "./side-effect.js";',
      'export { c } from "./c.js";',
      'export * from "../../d.js";',
      'const e = await import("./e.js");',
    ].join("\n"),
  );
});

test("packages, other extensions and text that only looks like an import are left alone", () => {
  const code = [
    'import { test } from "node:test";',
    'import { x } from "tsx/esm/api.ts";',
    'import data from "./data.json" with { type: "json" };',
    'const fixture = "import { a } from \\"./a.ts\\"";',
    'const path = new URL("./server.ts", import.meta.url);',
  ].join("\n");
  assert.equal(withJsSpecifiers(code), code);
});
