/**
 * The base class of cucumber's formatters, from cucumber's index. The index loads cucumber's
 * command line and every formatter too, but formatters run only in the process that runs
 * cucumber's API, which has loaded nearly all of that already: the index adds 18 modules,
 * about 7 ms of a run. (The steps, which every parallel worker loads, take cucumber's API
 * from harness/run/cucumber-private.ts instead.)
 */
import { createRequire } from "node:module";
import type * as Cucumber from "@cucumber/cucumber";

export const { Formatter } = createRequire(import.meta.url)("@cucumber/cucumber") as typeof Cucumber;

export type { IFormatterOptions } from "@cucumber/cucumber";
