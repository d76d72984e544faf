/**
 * The validators the build compiles beforehand (precompiledSource, in dist/) check as ajv
 * compiling the schema files at run time does (the TypeScript's way): the same verdicts and the
 * same errors, hence the same one-line messages.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { test } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import { packageFile } from "../package.ts";
import { AJV_OPTIONS, PRECOMPILED_FILE, precompiledSource } from "./schema-check.ts";

type Validator = ((value: unknown) => boolean) & { errors?: unknown };

/** The module precompiledSource writes, loaded as the build's file is: ajv's runtime from node_modules. */
function precompiled(): Record<string, Validator> {
  const module = { exports: {} as Record<string, Validator> };
  new Function("module", "exports", "require", precompiledSource())(
    module,
    module.exports,
    createRequire(import.meta.url),
  );
  return module.exports;
}

const SCHEMAS = ["target", "client", "interop"].map(
  (name) => JSON.parse(readFileSync(packageFile(`schema/${name}.schema.json`), "utf8")) as object,
);

/** Values of every shape, good and bad for some kind; and whole documents. */
const SAMPLES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  70000,
  "",
  "x",
  "/a/{user}",
  "http://127.0.0.1:8080/",
  "ftp://x",
  "Bearer {token}",
  [],
  ["a"],
  {},
  { bogus: 1 },
  { baseUrl: 3 },
  { run: { wait: -1 } },
  { run: { wait: 0, parallel: 2 } },
  { snapshots: { resources: [{ path: 5 }] } },
  { export: { backend: { path: "/x/{user}", tokenValue: "{token} {token}" } } },
  JSON.parse(readFileSync(packageFile("examples/reference.json"), "utf8")),
  { servers: {}, clients: {} },
];

test("every schema and every kind of schema/ is compiled beforehand, and checks as ajv at run time does", () => {
  const ready = precompiled();
  const ajv = new Ajv2020(AJV_OPTIONS);
  for (const schema of SCHEMAS) ajv.addSchema(schema);
  const names: string[] = [];
  for (const schema of SCHEMAS as { $id: string; $defs?: object }[]) {
    const name = /([a-z]+)\.schema\.json$/.exec(schema.$id)?.[1] as string;
    const kinds = Object.keys(schema.$defs ?? {});
    for (const [exported, ref] of [
      [name, schema.$id],
      ...kinds.map((kind) => [`${name}_${kind}`, `${schema.$id}#/$defs/${kind}`]),
    ]) {
      names.push(exported);
      const compiled = ajv.getSchema(ref) as Validator;
      const before = ready[exported];
      assert.ok(before, `${exported} is not compiled beforehand`);
      for (const sample of SAMPLES) {
        const where = `${exported} on ${JSON.stringify(sample)}`;
        assert.equal(before(sample), compiled(sample), where);
        assert.deepEqual(before.errors ?? null, compiled.errors ?? null, where);
      }
    }
  }
  assert.deepEqual(Object.keys(ready).sort(), names.sort());
});

test("the build's file is what precompiledSource writes from the schema files now (npm run build)", () => {
  const built = packageFile(`dist/harness/description/${PRECOMPILED_FILE}`);
  assert.equal(readFileSync(built, "utf8"), precompiledSource(), `${built.pathname} is stale: npm run build`);
});
