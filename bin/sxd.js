#!/usr/bin/env node
// Runs the TypeScript CLI through tsx. Cucumber's parallel workers are forked from this
// process, so they get the same loader through NODE_OPTIONS.
import { register } from "tsx/esm/api";

const tsx = import.meta.resolve("tsx");
if (!(process.env.NODE_OPTIONS ?? "").includes(tsx)) {
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ""} --import ${tsx}`.trim();
}
register();
const { main } = await import("../cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
