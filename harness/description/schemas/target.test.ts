/**
 * schema/target.schema.json is what editors check a description against; sxd checks it with
 * the file, written from the declaration (harness/description/schemas/target.ts). The files must be what
 * the declarations write, and the file, read by a validator of its own, must agree with sxd:
 * on every example, and on good and bad cases.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, realpathSync } from "node:fs";
import { dirname } from "node:path";
import { test } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import { packageFile } from "../../package.ts";
import { descriptionKeys, validateDescription } from "../target-check.ts";
import { SCHEMA_FILES, schemaText } from "./files.ts";

const schema = JSON.parse(readFileSync(packageFile("schema/target.schema.json"), "utf8"));
const schemaAccepts = new Ajv2020({ allErrors: true }).compile(schema);

test("each schema file is what its declaration writes (npm run schemas)", () => {
  for (const [file, declared] of Object.entries(SCHEMA_FILES))
    assert.equal(readFileSync(packageFile(file), "utf8"), schemaText(declared), `${file}: run npm run schemas`);
});

test("the schema accepts every example, and every example names it", () => {
  const examples = readdirSync(packageFile("examples/")).filter((name) => name.endsWith(".json"));
  assert.ok(examples.length > 0);
  for (const name of examples) {
    const description = JSON.parse(readFileSync(packageFile(`examples/${name}`), "utf8")) as { $schema?: string };
    assert.ok(schemaAccepts(description), `${name}: ${JSON.stringify(schemaAccepts.errors)}`);
    assert.equal(description.$schema, "../schema/target.schema.json", name);
    assert.ok(validateDescription(description).ok, name);
  }
});

const GOOD = [
  {},
  { $schema: "./node_modules/sxd/schema/target.schema.json", $comment: "our staging servers" },
  { baseUrl: "https://api.example.org", run: { parallel: 4, strict: true, $comment: "CI" } },
  { run: { rate: 10, refusalWait: 900 } },
  { digest: { noncePolicy: { uses: 3 } }, export: { result: false } },
  { digest: { noncePolicy: "unlimited" }, export: { result: "/api/users/{user}/contacts" } },
  {
    snapshots: {
      resources: [
        { path: "/notes/1", $comment: "seeded" },
        { path: "/notes/9", delete: true },
      ],
    },
  },
  { export: { outage: { stop: "docker stop contacts", start: "docker start contacts", timeoutMs: 30000 } } },
  { export: { upload: { method: "POST", path: "/user/{user}/contacts" }, result: "location" } },
  { digest: { noncePolicy: "nc-once", nonceLifetime: "unlimited", cookies: true }, export: { upload: false } },
  { digest: { nonceLifetime: 300 } },
  { export: { backend: { path: "/internal/export/{user}?t={token}" } } },
  { export: { backend: { path: "/api/{user}/contacts", method: "POST", tokenHeader: "X-Export-Token" } } },
  { export: { backend: { path: "/api/{user}", tokenHeader: "Authorization", tokenValue: "Bearer {token}" } } },
];

const BAD = [
  [],
  { baseUrl: "ftp://example.org" },
  { baseUrl: "example.org" },
  { snapshots: { colection: "/x/" } },
  { snapshots: { collection: "entries" } },
  { snapshots: { resources: [] } },
  { snapshots: { resources: [{ delete: true }] } },
  { digest: { noncePolicy: { uses: 0 } } },
  { digest: { noncePolicy: "twice" } },
  { digest: { nonceLifetime: 0 } },
  { digest: { nonceLifetime: "forever" } },
  { export: { upload: true } },
  { digest: { username: "" } },
  { export: { result: true } },
  { export: { outage: { stop: "x" } } },
  { run: { parallel: 1.5 } },
  { run: { refusalWait: 0 } },
  { run: { strict: "yes" } },
  { $comment: 7 },
  { digest: { $schema: "nested" } },
  { surprise: 1 },
  { export: { backend: { method: "GET" } } },
  { export: { backend: { path: "/internal/export?t={token}" } } },
  { export: { backend: { path: "internal/{user}" } } },
  { export: { backend: { path: "/x/{user}", tokenHeader: "" } } },
  { export: { backend: "/internal/{user}" } },
  { export: { backend: { path: "/x/{user}", tokenValue: "Bearer {token}" } } },
  { export: { backend: { path: "/x/{user}", tokenHeader: "Authorization", tokenValue: "Bearer" } } },
  { export: { backend: { path: "/x/{user}", tokenHeader: "Authorization", tokenValue: "{token} {token}" } } },
];

test("the schema and the checker agree on good and bad descriptions", () => {
  for (const description of GOOD) {
    assert.ok(schemaAccepts(description), `schema refused ${JSON.stringify(description)}`);
    assert.ok(validateDescription(description).ok, `checker refused ${JSON.stringify(description)}`);
  }
  for (const description of BAD) {
    assert.equal(schemaAccepts(description), false, `schema accepted ${JSON.stringify(description)}`);
    assert.equal(validateDescription(description).ok, false, `checker accepted ${JSON.stringify(description)}`);
  }
});

test("the annotations are for readers: the checked description comes back without them", () => {
  const checked = validateDescription({ $schema: "s.json", $comment: "c", run: { $comment: "d", parallel: 2 } });
  assert.ok(checked.ok);
  assert.deepEqual(checked.value, { run: { parallel: 2 } });
});

test("the schema names every key sxd's checker takes, so an editor flags none of them", () => {
  type Node = { properties?: Record<string, Node>; $ref?: string; anyOf?: Node[]; items?: Node };
  const defs = schema.$defs as Record<string, Node>;
  const resolve = (node: Node | undefined): Node | undefined =>
    node?.$ref ? resolve(defs[node.$ref.replace("#/$defs/", "")]) : node;
  const known = (path: string): boolean => {
    let node: Node | undefined = schema as Node;
    for (const key of path.split(".")) {
      const here: Node | undefined = resolve(node);
      const inner: Node | undefined = here?.properties
        ? here
        : (here?.anyOf?.map(resolve).find((n) => n?.properties) ?? resolve(here?.items));
      node = inner?.properties?.[key];
      if (!node) return false;
    }
    return true;
  };
  assert.deepEqual(
    descriptionKeys().filter((key) => !known(key)),
    [],
  );
});

test("the run loads no declaration of this folder, nor typebox: it reads the schema files", () => {
  // The checkout's own folders, also where the tests run from their build (scripts/test-tree.mjs).
  const root = `${dirname(realpathSync(packageFile("package.json")))}/`;
  const sources = ["bin", "cli", "harness", "lib", "reference", "steps"]
    .flatMap((folder) => readdirSync(`${root}${folder}`, { recursive: true }).map((f) => `${folder}/${String(f)}`))
    .filter(
      (file) =>
        /\.(ts|js|mjs)$/.test(file) && !file.endsWith(".test.ts") && !file.startsWith("harness/description/schemas/"),
    );
  assert.ok(sources.length > 100);
  const statement = /\bimport\s+(type\s+)?[^;]*?\bfrom\s+"([^"]+)"/g;
  const loading = sources.flatMap((file) =>
    [...readFileSync(`${root}${file}`, "utf8").matchAll(statement)]
      .filter(([, typeOnly, from]) => !typeOnly && (from === "typebox" || /(^|\/)schemas\//.test(from ?? "")))
      .map(([, , from]) => `${file} imports ${from}`),
  );
  assert.deepEqual(loading, []);
});
