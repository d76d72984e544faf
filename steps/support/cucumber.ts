/**
 * Cucumber's step-definition API, taken from the module that holds it instead of from
 * `@cucumber/cucumber`'s index, which also loads cucumber's command line, configuration and
 * every formatter: about 70 ms of each parallel worker's start, for nothing a step uses.
 * cucumber's exports map opens `lib/*` to require; cucumber.test.ts checks that these are the
 * index's own builder and World, so an upgrade that moves them fails a test, not a run.
 */
import { createRequire } from "node:module";
import type * as Cucumber from "@cucumber/cucumber";

const require = createRequire(import.meta.url);

export const builder = (
  require("@cucumber/cucumber/lib/support_code_library_builder/index") as {
    default: { methods: typeof Cucumber } & object;
  }
).default;

export const World = (
  require("@cucumber/cucumber/lib/support_code_library_builder/world") as { default: typeof Cucumber.World }
).default;

export const {
  After,
  AfterAll,
  Before,
  BeforeAll,
  defineParameterType,
  Given,
  setDefaultTimeout,
  setParallelCanAssign,
  setWorldConstructor,
  Then,
  When,
} = builder.methods;

export type { DataTable, IWorldOptions } from "@cucumber/cucumber";
