/**
 * Several scenarios at once in this one process, for a target far away. cucumber-js runs the
 * scenarios of one process one after another (its in-process adapter), or one at a time in
 * each of `--parallel` worker processes, each of which costs a process start (a quarter of a
 * second of CPU) and about 60 MB. Over a network a scenario mostly waits for replies, so one
 * process can keep many under way: this gives cucumber's in-process adapter a loop that keeps
 * up to `scenariosAtOnce` (a world parameter) running, and starts a scenario only where the
 * support code's setParallelCanAssign allows it (`@alone`), as cucumber's workers do.
 *
 * Each scenario has its own world and test-case runner (cucumber keeps the current one per
 * async context), and the steps keep no per-process state a second scenario could see: the
 * same holds as for parallel workers, which share the target. (An exception a step leaves
 * uncaught, a bug of the suite, fails every step under way then, not only its own.)
 *
 * @example
 *   runsScenariosAtOnce(); // once, before runCucumber; worldParameters.scenariosAtOnce = 16
 */
import { InProcessAdapter, type Pickled } from "./cucumber-private.ts";

let installed = false;

/** Lets cucumber's in-process runs take `worldParameters.scenariosAtOnce` scenarios at once (absent or 1: one). */
export function runsScenariosAtOnce(): void {
  if (installed) return;
  installed = true;
  const oneAtATime = InProcessAdapter.prototype.run;
  InProcessAdapter.prototype.run = async function (this: InProcessAdapter, items) {
    const atOnce = this.worker.options.worldParameters?.scenariosAtOnce ?? 1;
    if (atOnce <= 1) return oneAtATime.call(this, items);
    // Cucumber listens for an uncaught exception while each step runs: one listener per scenario under way.
    const listeners = process.getMaxListeners();
    process.setMaxListeners(listeners + atOnce);
    try {
      await this.worker.runBeforeAllHooks();
      await inTurns(this, items, atOnce);
      await this.worker.runAfterAllHooks();
    } finally {
      process.setMaxListeners(listeners);
    }
    return !this.failing;
  };
}

/** Runs the items, at most `atOnce` at a time, each where the support code lets it start beside those running. */
export function inTurns(
  adapter: Pick<InProcessAdapter, "failing" | "worker">,
  items: readonly Pickled[],
  atOnce: number,
): Promise<void> {
  const { worker } = adapter;
  const todo = [...items];
  const running = new Set<Pickled>();
  return new Promise((resolve, reject) => {
    const startWhatMay = () => {
      while (running.size < atOnce && todo.length > 0) {
        const beside = [...running].map((item) => item.pickle);
        const index = todo.findIndex((item) => worker.supportCodeLibrary.parallelCanAssign(item.pickle, beside));
        // With nothing running every scenario may start; cucumber's own workers start the first then too.
        if (index < 0 && running.size > 0) break;
        const [item] = todo.splice(Math.max(index, 0), 1) as [Pickled];
        running.add(item);
        worker.runTestCase(item, adapter.failing).then((passed) => {
          if (!passed) adapter.failing = true;
          running.delete(item);
          startWhatMay();
        }, reject);
      }
      if (running.size === 0 && todo.length === 0) resolve();
    };
    startWhatMay();
  });
}
