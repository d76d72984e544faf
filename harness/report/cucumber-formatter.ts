/**
 * The base class of cucumber's formatters, from the module that holds it instead of
 * `@cucumber/cucumber`'s index, which also loads cucumber's command line, configuration and
 * every formatter: about 70 ms of each run, before its first scenario. cucumber's exports map
 * opens `lib/*` to require; cucumber-formatter.test.ts holds it to the index's own.
 */
import { createRequire } from "node:module";
import type * as Cucumber from "@cucumber/cucumber";

export const Formatter = (
  createRequire(import.meta.url)("@cucumber/cucumber/lib/formatter/index") as { default: typeof Cucumber.Formatter }
).default;

export type { IFormatterOptions } from "@cucumber/cucumber";
