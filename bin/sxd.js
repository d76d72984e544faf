#!/usr/bin/env node
// The installed package runs the JavaScript compiled into dist/ (built at `npm pack`), so it
// compiles no TypeScript. A source checkout, which has cli/main.ts and no reliable dist/, runs
// the TypeScript through tsx; cucumber's parallel workers are forked from this process, so
// they get the same loader through NODE_OPTIONS.
import { existsSync } from "node:fs";

const source = new URL("../cli/main.ts", import.meta.url);
let main;
if (existsSync(source)) {
  const { register } = await import("tsx/esm/api");
  const tsx = import.meta.resolve("tsx");
  if (!(process.env.NODE_OPTIONS ?? "").includes(tsx)) {
    process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ""} --import ${tsx}`.trim();
  }
  register();
  ({ main } = await import(source.href));
} else {
  ({ main } = await import("../dist/cli/main.js"));
}
process.exitCode = await main(process.argv.slice(2));
