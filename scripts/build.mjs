// Compiles the TypeScript into dist/ for the published package (run by `npm pack` through
// prepack), with the data files read beside their own modules: the reference's contact fixture
// and the docs site's script and style sheet.
import { spawnSync } from "node:child_process";
import { copyFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";

rmSync("dist", { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const result = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { stdio: "inherit" });
if (result.status !== 0) process.exit(result.status ?? 1);
for (const file of ["reference/export/contacts.json", "harness/docs/browser.js", "harness/docs/site.css"]) {
  copyFileSync(file, `dist/${file}`);
}
