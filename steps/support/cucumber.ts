/**
 * Cucumber's step-definition API, taken from harness/run/cucumber-private.ts (the builder and World
 * cucumber's index exports) instead of from `@cucumber/cucumber`'s index, which also loads
 * cucumber's command line, configuration and every formatter: about 70 ms of each parallel
 * worker's start, for nothing a step uses.
 */
import { supportCodeLibraryBuilder, World } from "../../harness/run/cucumber-private.ts";

export { World };

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
} = supportCodeLibraryBuilder.methods;

export type { DataTable, IWorldOptions } from "@cucumber/cucumber";
