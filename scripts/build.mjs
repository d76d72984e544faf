// Compiles the TypeScript into dist/ for the published package (run by `npm pack` through
// prepack), with the one data file that the reference reads beside its own module.
import { spawnSync } from "node:child_process";
import { copyFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";

rmSync("dist", { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const result = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { stdio: "inherit" });
if (result.status !== 0) process.exit(result.status ?? 1);
copyFileSync("reference/export/contacts.json", "dist/reference/export/contacts.json");
