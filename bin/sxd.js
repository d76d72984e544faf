#!/usr/bin/env node
// The installed package runs the JavaScript compiled into dist/ (built at `npm pack`), so it
// compiles no TypeScript. A source checkout, which has cli/main.ts, runs dist/ too where the
// build there is newer than every source file (`npm ci` builds it, at `prepare`): compiled,
// a run starts faster (the tests build it first, so they test the source compiled).
// Otherwise, or with SXD_FROM_SOURCE=1, it runs the TypeScript through tsx; cucumber's
// parallel workers are forked from this process, so they get the same loader through
// NODE_OPTIONS.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const source = new URL("../cli/main.ts", import.meta.url);
let main;
if (existsSync(source) && (process.env.SXD_FROM_SOURCE === "1" || !builtAfterSources())) {
  const { register } = await import("tsx/esm/api");
  const tsx = import.meta.resolve("tsx");
  if (!(process.env.NODE_OPTIONS ?? "").includes(tsx)) {
    // What the user gave, for the commands sxd runs on their behalf (harness/package.ts usersEnvironment).
    process.env.SXD_LAUNCHER_NODE_OPTIONS ??= process.env.NODE_OPTIONS ?? "";
    process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ""} --import ${tsx}`.trim();
  }
  register();
  ({ main } = await import(source.href));
} else {
  ({ main } = await import("../dist/cli/main.js"));
}
process.exitCode = await main(process.argv.slice(2));

/**
 * Whether dist/ was built from the sources as they are: its stamp (written by
 * scripts/build.mjs) holds the time the build started, and nothing in the folders the build
 * compiles (tsconfig.build.json's include) has changed since: no file, and no folder (a
 * folder's time moves when a file in it is added, removed or renamed). Anything that cannot
 * be read counts as changed: the TypeScript is always a safe choice.
 */
function builtAfterSources() {
  try {
    const startedAt = Number(readFileSync(`${root}dist/.built`, "utf8"));
    if (!Number.isFinite(startedAt)) return false;
    const { include } = JSON.parse(readFileSync(`${root}tsconfig.build.json`, "utf8"));
    // schema/: the build compiles its validators (harness/schema-check.ts).
    for (const folder of [...include, "schema"]) {
      if (statSync(`${root}${folder}`).mtimeMs >= startedAt) return false;
      for (const name of readdirSync(`${root}${folder}`, { recursive: true })) {
        // Tests are not compiled; a test added or removed still moves its folder's time.
        if (name.endsWith(".test.ts")) continue;
        if (statSync(`${root}${folder}/${name}`).mtimeMs >= startedAt) return false;
      }
    }
    return true;
  } catch {
    return false;
  }
}
