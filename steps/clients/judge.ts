/**
 * What every client step shares: choosing the recorded run of a task (and, for a staged
 * condition, its control), attaching what the client did, and turning a grade into the
 * scenario's outcome. Each grade's reason is attached, passed or not.
 */
import { endOf, type Grade, NOT_SUPPORTED, type StagedCondition, type TaskRun } from "../../harness/client/evidence.ts";
import { clientOutput, runExchanges } from "../../harness/client/transcript.ts";
import { EXCHANGES_MEDIA_TYPE, OBSERVED_MEDIA_TYPE } from "../../harness/outcomes.ts";
import { ConformanceFailure } from "../../harness/step-errors.ts";
import type { ClientWorld } from "./world.ts";

function evidence(world: ClientWorld, run: TaskRun): void {
  world.attach(clientOutput(run), "text/plain");
  world.attach(JSON.stringify(runExchanges(run)), EXCHANGES_MEDIA_TYPE);
}

function findRun(world: ClientWorld, task: string, condition?: StagedCondition): TaskRun | undefined {
  return world.parameters.runs.find((run) => run.task === task && run.condition === condition);
}

/** The plain run of the task becomes the judged one; not run where the client does not do it. */
export function chooseTask(world: ClientWorld, task: string): "skipped" | undefined {
  const run = findRun(world, task);
  const { recorded } = world.parameters;
  if (!run)
    return world.skipped(
      recorded ? `no request of the task ${task} is in what was ${recorded}` : `the task ${task} was not run`,
    );
  evidence(world, run);
  if (run.exitCode === NOT_SUPPORTED) return world.skipped(`the client does not do the task ${task} (it exited 127)`);
  world.run = run;
  return undefined;
}

/** The run of the same task under the condition becomes the judged one, the plain run its control. */
export function chooseStaged(world: ClientWorld, condition: StagedCondition, see: string): "skipped" | undefined {
  if (world.parameters.recorded) return unstaged(world, [condition]);
  const control = world.run;
  const run = control && findRun(world, control.task, condition);
  if (!control || !run)
    return world.skipped(
      `the same task without the condition did not succeed (${control && endOf(control)}): see ${see}`,
    );
  evidence(world, run);
  [world.control, world.run] = [control, run];
  return undefined;
}

/** The plain run stays the judged one; the runs under these conditions come beside it, where sxd staged them. */
export function chooseStagedRuns(
  world: ClientWorld,
  conditions: readonly StagedCondition[],
  see: string,
): "skipped" | undefined {
  if (world.parameters.recorded) return unstaged(world, conditions);
  const plain = world.run;
  const runs = conditions.flatMap((condition) => (plain && findRun(world, plain.task, condition)) ?? []);
  if (!plain || runs.length === 0)
    return world.skipped(`the same task without the conditions did not succeed (${plain && endOf(plain)}): see ${see}`);
  for (const run of runs) evidence(world, run);
  world.staged = runs;
  return undefined;
}

/** A recording holds no staged condition: sxd stages one by running the task again, which only --run can. */
function unstaged(world: ClientWorld, conditions: readonly StagedCondition[]): "skipped" {
  return world.skipped(
    `sxd judges this row by running the task again under a condition it stages (${conditions.join(", ")}); what was ${world.parameters.recorded} cannot show that: run the client with --run`,
  );
}

export function judged(world: ClientWorld, grade: (run: TaskRun) => Grade): "skipped" | undefined {
  const run = world.run;
  if (!run) throw new Error("no task run chosen (a bug in the feature)");
  const { status, reason } = grade(run);
  if (status === "not run" || status === "not applicable") return world.skipped(reason, status);
  if (status === "failed")
    throw new ConformanceFailure(reason.includes(endOf(run)) ? reason : `${reason} [${endOf(run)}]`);
  world.attach(reason, OBSERVED_MEDIA_TYPE);
  return undefined;
}

/** The control of a staged case (a bug in the feature where there is none). */
export function controlOf(world: ClientWorld): TaskRun {
  if (!world.control) throw new Error("no control run (a bug in the feature)");
  return world.control;
}
