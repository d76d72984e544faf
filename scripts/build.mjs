// Compiles the TypeScript into dist/ (run at `prepare`: by `npm pack` for the published package,
// and by `npm ci` in a checkout, where bin/sxd.js runs it while it is fresh), with the data
// files read beside their own modules: the reference's contact fixture, interop.html's filter
// script, and the docs site's script and style sheet; and the validators of schema/, compiled.
// The build is written beside dist/ and swapped in whole, so an sxd started meanwhile (the
// tests' own, while the package test packs) never finds half a dist/.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

// A source file changed from here on makes the build stale (bin/sxd.js reads the stamp).
const startedAt = Date.now();
const next = `dist.next-${process.pid}`;
const old = `dist.old-${process.pid}`;
rmSync(next, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
// Extra tsc flags pass through (e.g. --sourceMap).
const result = spawnSync(
  process.execPath,
  [tsc, "-p", "tsconfig.build.json", "--outDir", next, ...process.argv.slice(2)],
  { stdio: "inherit" },
);
if (result.status !== 0) {
  rmSync(next, { recursive: true, force: true });
  process.exit(result.status ?? 1);
}
// The schemas' declarations are for `npm run schemas` and the types: the run reads schema/*.json,
// and typebox, which they import, is a development dependency.
rmSync(`${next}/harness/description/schemas`, { recursive: true, force: true });
for (const file of [
  "reference/export/contacts.json",
  "harness/docs/browser.js",
  "harness/docs/site.css",
  "harness/report/interop-filter.js",
]) {
  copyFileSync(file, `${next}/${file}`);
}
// The schemas' validators, compiled now rather than by every run (harness/description/schema-check.ts).
const { PRECOMPILED_FILE, precompiledSource } = await import(
  pathToFileURL(`${next}/harness/description/schema-check.js`).href
);
writeFileSync(`${next}/harness/description/${PRECOMPILED_FILE}`, precompiledSource());
writeFileSync(`${next}/.built`, String(startedAt));
if (existsSync("dist")) renameSync("dist", old);
renameSync(next, "dist");
rmSync(old, { recursive: true, force: true });
