/**
 * Loaded first in every test file's process (scripts/run-tests.mjs), before node:test: Node 20's
 * test runner without its async hook. Its harness installs one (init and destroy on every async
 * resource) to tell which test a resource belongs to; with a destroy callback, V8 then tracks
 * every promise's end as well. The tests run whole suites in their own process, hundreds of
 * thousands of promises and sockets each: a profile of test/faults-digest.test.ts gave the hook
 * 1.5 s of its 18 s of CPU, and that file took 22.5 s of CPU with it and 18.7 s without.
 *
 * The harness needs one thing of the hook: each test known by its async id, so that it()
 * and the hooks called inside a describe() find their suite. Here each test tells the harness
 * itself, as it is made; nothing else is hooked. What is lost: an error thrown outside a test's
 * own code (a callback, a timer) is reported at the top of the file's output instead of under the
 * test it came from. It still fails the run. Other versions of node keep their hook.
 */
import asyncHooks from "node:async_hooks";

if (process.versions.node.startsWith("20.")) {
  const { createHook, AsyncResource } = asyncHooks;
  let harness: asyncHooks.HookCallbacks | undefined;
  // Both are read by node:test's modules as they load, just below; the exports are restored then.
  asyncHooks.createHook = (callbacks: asyncHooks.HookCallbacks) => {
    if (!(new Error().stack ?? "").includes("internal/test_runner/harness")) return createHook(callbacks);
    harness = callbacks;
    const idle: asyncHooks.AsyncHook = { enable: () => idle, disable: () => idle };
    return idle;
  };
  asyncHooks.AsyncResource = class extends AsyncResource {
    constructor(type: string, options?: asyncHooks.AsyncResourceOptions) {
      super(type, options);
      // node:test's Test (and Suite) is an AsyncResource of the type "Test".
      if (type === "Test") harness?.init?.(this.asyncId(), type, this.triggerAsyncId(), this);
    }
  };
  await import("node:test");
  asyncHooks.createHook = createHook;
  asyncHooks.AsyncResource = AsyncResource;
}
