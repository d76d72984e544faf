#!/usr/bin/env node
// The installed package runs the JavaScript compiled into dist/ (built at `npm pack`), so it
// compiles no TypeScript. A source checkout, which has cli/main.ts, runs dist/ too where the
// build there is newer than every source file (`npm ci` builds it, at `prepare`): compiled,
// a run starts faster (the tests build it first, so they test the source compiled).
// Otherwise, or with SXD_FROM_SOURCE=1, it runs the TypeScript through tsx; cucumber's
// parallel workers are forked from this process, so they get the same loader through
// NODE_OPTIONS.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { builtAfterSources } from "./built.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const source = new URL("../cli/main.ts", import.meta.url);
let main;
if (existsSync(source) && (process.env.SXD_FROM_SOURCE === "1" || !builtAfterSources(root))) {
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
