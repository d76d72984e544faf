// bin/sxd.js in a source checkout: the compiled dist/ while no source changed since its build
// started, else the TypeScript through tsx; SXD_FROM_SOURCE=1 always the TypeScript.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { tempDir } from "./support/cli.ts";
import { SOURCE_ROOT } from "./support/source-root.ts";

/** A checkout in miniature: the real launcher, a main in cli/ and one in dist/ that say which they are. */
function checkout(): string {
  const root = tempDir();
  mkdirSync(join(root, "bin"));
  for (const file of ["bin/sxd.js", "bin/built.js"]) copyFileSync(join(SOURCE_ROOT, file), join(root, file));
  symlinkSync(join(SOURCE_ROOT, "node_modules"), join(root, "node_modules"));
  writeFileSync(join(root, "package.json"), JSON.stringify({ type: "module" }));
  writeFileSync(join(root, "tsconfig.build.json"), JSON.stringify({ include: ["cli", "lib"] }));
  for (const folder of ["cli", "lib", "schema", "dist/cli"]) mkdirSync(join(root, folder), { recursive: true });
  const main = (which: string) => `export async function main() { console.log("${which}"); return 0; }\n`;
  writeFileSync(join(root, "cli/main.ts"), main("source"));
  writeFileSync(join(root, "lib/codec.ts"), "export const x: number = 1;\n");
  // The build compiles the schemas' validators too.
  writeFileSync(join(root, "schema/target.schema.json"), "{}\n");
  writeFileSync(join(root, "dist/cli/main.js"), main("dist"));
  return root;
}

function launch(root: string, env: Record<string, string> = {}): string {
  const { SXD_FROM_SOURCE: _, ...inherited } = process.env;
  const run = spawnSync(process.execPath, [join(root, "bin/sxd.js")], {
    env: { ...inherited, ...env },
    encoding: "utf8",
  });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.trim();
}

test("a checkout without a build runs the TypeScript", () => {
  assert.equal(launch(checkout()), "source");
});

test("a build newer than every source runs dist/, unless SXD_FROM_SOURCE=1", () => {
  const root = checkout();
  writeFileSync(join(root, "dist/.built"), String(Date.now() + 1000));
  assert.equal(launch(root), "dist");
  assert.equal(launch(root, { SXD_FROM_SOURCE: "1" }), "source");
});

test("a source file changed after the build started makes the build stale", () => {
  const root = checkout();
  const builtAt = Date.now();
  writeFileSync(join(root, "dist/.built"), String(builtAt));
  const later = new Date(builtAt + 5000);
  utimesSync(join(root, "lib/codec.ts"), later, later);
  assert.equal(launch(root), "source");
});

/** A checkout with a build stamped a moment after its sources were written. */
function built(): string {
  const root = checkout();
  writeFileSync(join(root, "lib/codec.test.ts"), "export {};\n");
  const past = new Date(Date.now() - 10_000);
  for (const path of [
    "cli",
    "lib",
    "schema",
    "cli/main.ts",
    "lib/codec.ts",
    "lib/codec.test.ts",
    "schema/target.schema.json",
  ])
    utimesSync(join(root, path), past, past);
  writeFileSync(join(root, "dist/.built"), String(Date.now() - 5000));
  return root;
}

test("a schema file changed after the build makes it stale: the build compiled its validators", () => {
  const root = built();
  assert.equal(launch(root), "dist");
  writeFileSync(join(root, "schema/target.schema.json"), '{ "title": "changed" }\n');
  assert.equal(launch(root), "source");
});

test("a source file removed after the build makes it stale; a test file changed does not", () => {
  const root = built();
  assert.equal(launch(root), "dist");
  writeFileSync(join(root, "lib/codec.test.ts"), "export const changed = 1;\n");
  assert.equal(launch(root), "dist");
  rmSync(join(root, "lib/codec.ts"));
  assert.equal(launch(root), "source");
});

test("a source folder it cannot read through (a dangling link, say) runs the TypeScript, no crash", () => {
  const root = built();
  symlinkSync(join(root, "nowhere"), join(root, "lib/.#codec.ts"));
  const past = new Date(Date.now() - 10_000);
  utimesSync(join(root, "lib"), past, past);
  assert.equal(launch(root), "source");
});
