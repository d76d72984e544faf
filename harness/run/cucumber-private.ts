/**
 * The one module that takes anything from @cucumber/cucumber's private modules (`lib/...`):
 * cucumber's exports map opens them to require, but no release promises what they hold. Each
 * is taken for what cucumber's public API does not give, or gives only at a cost:
 *
 * - `lib/runtime/serial/adapter`: the in-process adapter, whose `run` concurrent-scenarios.ts
 *   replaces to run several scenarios at once; cucumber has no public way to do that.
 * - `lib/support_code_library_builder/index` and `.../world`: the step-definition API, the very
 *   objects cucumber's index exports, without the index's command line, configuration and
 *   formatters, which cost about 70 ms of each parallel worker's start (steps/support/cucumber.ts).
 *
 * cucumber-private.test.ts holds these to cucumber's index and fails, naming them, on any
 * cucumber but TESTED_WITH; test/layout.test.ts keeps every other file from naming `lib/`.
 *
 * @example
 *   const { Given } = supportCodeLibraryBuilder.methods; // as steps/support/cucumber.ts hands it out
 *   InProcessAdapter.prototype.run; // what cucumber calls to run the scenarios of one process
 */
import { createRequire } from "node:module";
import type * as Cucumber from "@cucumber/cucumber";

/** The @cucumber/cucumber whose private modules this one was read against. */
export const TESTED_WITH = "12.9.0";

const MODULES = {
  adapter: "@cucumber/cucumber/lib/runtime/serial/adapter",
  builder: "@cucumber/cucumber/lib/support_code_library_builder/index",
  world: "@cucumber/cucumber/lib/support_code_library_builder/world",
} as const;

/** Every private module sxd loads, by the name it is required by. */
export const PRIVATE_MODULES: readonly string[] = Object.values(MODULES);

/** A scenario as cucumber hands it to an adapter. */
export interface Pickled {
  pickle: { tags: ReadonlyArray<{ name: string }> };
}

/** The parts of cucumber's in-process adapter (lib/runtime/serial/adapter.js) sxd uses. */
export interface InProcessAdapter {
  failing: boolean;
  worker: {
    options: { worldParameters?: { scenariosAtOnce?: number } };
    supportCodeLibrary: { parallelCanAssign: (candidate: unknown, running: unknown[]) => boolean };
    runBeforeAllHooks(): Promise<unknown>;
    runAfterAllHooks(): Promise<unknown>;
    runTestCase(item: Pickled, failing: boolean): Promise<boolean>;
  };
  run(items: readonly Pickled[]): Promise<boolean>;
}

const require = createRequire(import.meta.url);

export const InProcessAdapter = (require(MODULES.adapter) as { InProcessAdapter: { prototype: InProcessAdapter } })
  .InProcessAdapter;

export const supportCodeLibraryBuilder = (
  require(MODULES.builder) as { default: { methods: typeof Cucumber } & object }
).default;

export const World = (require(MODULES.world) as { default: typeof Cucumber.World }).default;
