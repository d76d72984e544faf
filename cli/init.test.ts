import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { PassThrough } from "node:stream";
import { test } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import { resolveDescription } from "../harness/description/target.ts";
import { parseDescription } from "../harness/description/target-check.ts";
import { UsageError } from "../harness/errors.ts";
import { packageFile } from "../harness/package.ts";
import { REFERENCE_DESCRIPTION } from "../reference/index.ts";
import { type Ask, runInit, schemaReference } from "./init.ts";

const folder = mkdtempSync(join(tmpdir(), "sxd-init-"));
const stdout = () => new PassThrough();
const schema = JSON.parse(readFileSync(packageFile("schema/target.schema.json"), "utf8")) as { $id: string };

/** The schema a written `$schema` names: the package's by its `$id`, or a file by its path. */
function schemaOf(file: string, reference: string): unknown {
  if (reference === schema.$id) return schema;
  const schemaFile = resolve(dirname(file), reference);
  assert.ok(existsSync(schemaFile), `$schema points at ${schemaFile}`);
  return JSON.parse(readFileSync(schemaFile, "utf8"));
}

function written(file: string) {
  const text = readFileSync(file, "utf8");
  const raw = JSON.parse(text) as { $schema: string; digest: { $comment: string } };
  const schemaAccepts = new Ajv2020().compile(schemaOf(file, raw.$schema) as object);
  assert.ok(schemaAccepts(raw), JSON.stringify(schemaAccepts.errors));
  const parsed = parseDescription(text, file);
  assert.ok(parsed.ok, parsed.ok ? "" : parsed.error);
  const resolved = resolveDescription([parsed.value]);
  assert.ok(resolved.ok);
  return { raw, description: resolved.value };
}

test("from flags: a description the schema and the checker accept, with notes for the reader", async () => {
  const out = join(folder, "flags.json");
  const code = await runInit(
    ["--base-url", "https://staging.example.org", "--collection", "/notes/", "--username", "ci", "--out", out],
    { stdout: stdout() },
  );
  assert.equal(code, 0);
  const { raw, description } = written(out);
  assert.equal(description.baseUrl, "https://staging.example.org");
  assert.equal(description.snapshots.collection, "/notes/");
  assert.equal(description.digest.username, "ci");
  assert.equal(description.contactsUrl, undefined);
  assert.match(raw.digest.$comment, /"noncePolicy"/);
  assert.equal(raw.$schema, schema.$id, "the package is not under the temporary folder: no path out of it");
});

test("$schema: a path where the schema is in the file's folder tree, else the schema's $id", () => {
  const id = "https://sxd.example/schema/target.schema.json";
  const cases: Array<[string, string, string]> = [
    [
      "/home/u/app/sxd-target.json",
      "/home/u/app/node_modules/sxd/schema/target.schema.json",
      "./node_modules/sxd/schema/target.schema.json",
    ],
    ["/src/sxd/sxd-target.json", "/src/sxd/schema/target.schema.json", "./schema/target.schema.json"],
    // In a container: the user's folder is mounted on /work, sxd is installed globally.
    ["/work/sxd-target.json", "/usr/local/lib/node_modules/sxd/schema/target.schema.json", id],
    ["/home/u/app/sxd-target.json", "/home/u/.nvm/lib/node_modules/sxd/schema/target.schema.json", id],
    ["/home/u/app/ci/sxd-target.json", "/home/u/app/node_modules/sxd/schema/target.schema.json", id],
  ];
  for (const [out, schemaFile, expected] of cases) assert.equal(schemaReference(out, schemaFile, id), expected, out);
});

/** The reference's own choices, which a description of another server must never hold unasked. */
const REFERENCE_VALUES = [
  REFERENCE_DESCRIPTION.snapshots.collection,
  REFERENCE_DESCRIPTION.digest.path,
  REFERENCE_DESCRIPTION.digest.username,
  REFERENCE_DESCRIPTION.digest.password,
  REFERENCE_DESCRIPTION.export.user,
];

test("on a terminal it asks each question, and an empty answer leaves the key unstated, never the reference's", async () => {
  const asked: string[] = [];
  const answers = ["http://127.0.0.1:9000", "http://127.0.0.1:9001", "http://127.0.0.1:9002", "", "/secret"];
  const ask: Ask = async (question) => {
    asked.push(question);
    return answers.shift() ?? "";
  };
  const out = join(folder, "asked.json");
  assert.equal(await runInit(["--out", out, "--password", "s3cret"], { stdout: stdout(), ask }), 0);
  assert.equal(asked.length, 8, "every question but the password, given as a flag");
  for (const question of asked) {
    for (const value of REFERENCE_VALUES) assert.ok(!question.includes(`[${value}]`), `${question} offers ${value}`);
  }
  const { description } = written(out);
  assert.equal(description.contactsUrl, "http://127.0.0.1:9001");
  assert.equal(description.snapshots.collection, undefined);
  assert.equal(description.digest.path, "/secret");
  assert.equal(description.digest.username, undefined);
  assert.equal(description.digest.password, "s3cret");
  assert.equal(description.export.user, undefined);
});

test("without a terminal, the keys not given are left out, and the file and the output name them", async () => {
  const out = join(folder, "silent.json");
  const printed = stdout();
  let text = "";
  printed.on("data", (chunk) => {
    text += chunk;
  });
  assert.equal(await runInit(["--base-url", "http://127.0.0.1:9000", "--out", out], { stdout: printed }), 0);
  const file = readFileSync(out, "utf8");
  for (const value of REFERENCE_VALUES) assert.ok(!file.includes(`"${value}"`), `the file holds ${value}`);
  const { raw, description } = written(out);
  assert.deepEqual(description.digest, {});
  assert.match(raw.digest.$comment, /^Still to state: digest\.path, digest\.username, digest\.password;/);
  assert.match(
    text,
    /^still to state \(until then, the rows that need them are not run\): snapshots\.collection \(or snapshots\.resources, [^)]*\), digest\.path, digest\.username, digest\.password, contactsUrl, messagingUrl, export\.user$/m,
  );
});

test("errors of use: no base URL and no terminal, a bad URL, an existing file without --force", async () => {
  const out = join(folder, "kept.json");
  writeFileSync(out, "mine");
  const cases: Array<[string[], RegExp]> = [
    [["--out", join(folder, "none.json")], /needs --base-url/],
    [["--base-url", "ftp://x", "--out", join(folder, "ftp.json")], /baseUrl must be an http/],
    [["--base-url", "http://x", "--out", out], /exists \(--force overwrites it\)/],
    [["--base-url", "http://x", "--out", join(folder, "no", "such", "x.json")], /no such folder/],
    [["--base-url", "http://x", "--bogus"], /bogus/],
  ];
  for (const [argv, message] of cases) {
    await assert.rejects(runInit(argv, { stdout: stdout() }), (error: Error) => {
      assert.ok(error instanceof UsageError, String(error));
      assert.match(error.message, message);
      return true;
    });
  }
  assert.equal(readFileSync(out, "utf8"), "mine");
  assert.equal(await runInit(["--base-url", "http://x", "--out", out, "--force"], { stdout: stdout() }), 0);
  assert.equal(written(out).description.baseUrl, "http://x");
});

test("the backend request is asked for: the path becomes export.backend, and a path without {user} is refused", async () => {
  const out = join(folder, "backend.json");
  const backend = "/internal/export/{user}?t={token}";
  const code = await runInit(["--base-url", "http://x", "--export-backend", backend, "--out", out], {
    stdout: stdout(),
  });
  assert.equal(code, 0);
  assert.deepEqual(written(out).description.export.backend, { path: backend });
  const bad = join(folder, "bad-backend.json");
  await assert.rejects(
    runInit(["--base-url", "http://x", "--export-backend", "/internal/export", "--out", bad], { stdout: stdout() }),
    (error: Error) =>
      error instanceof UsageError &&
      /export\.backend\.path must be a path naming the user with \{user\}/.test(error.message),
  );
});
