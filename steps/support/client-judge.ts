/**
 * What every client step shares: choosing the recorded runs of a task (and, for a staged
 * condition, its run and control), attaching what the client did, and turning a grade into the
 * scenario's outcome. Each grade's reason is attached, passed or not.
 */

import { clientOutput, runExchanges } from "../../harness/client/transcript.ts";
import {
  endOf,
  type Grade,
  NOT_SUPPORTED,
  type StagedCondition,
  type TaskRun,
} from "../../harness/evidence/client-evidence.ts";
import { EXCHANGES_MEDIA_TYPE } from "../../harness/judging/outcomes.ts";
import { ConformanceFailure } from "../../harness/judging/step-errors.ts";
import type { ClientWorld } from "./client-world.ts";

function evidence(world: ClientWorld, run: TaskRun): void {
  world.attach(clientOutput(run), "text/plain");
  world.attach(JSON.stringify(runExchanges(run)), EXCHANGES_MEDIA_TYPE);
}

function findRun(world: ClientWorld, task: string, condition?: StagedCondition): TaskRun | undefined {
  return world.parameters.runs.find((run) => run.task === task && run.condition === condition);
}

/**
 * The plain run of the task becomes the judged one, and every run of it (the staged ones too)
 * the runs a row about each answer reads. A task the client does not do (exit 127), or that a
 * recording holds nothing of, is not applicable: neither a pass nor a failure.
 */
export function chooseTask(world: ClientWorld, task: string): "skipped" | undefined {
  const run = findRun(world, task);
  const { recorded } = world.parameters;
  if (!run)
    return recorded
      ? world.notApplicable(`what was ${recorded} holds no request of the task ${task}`)
      : world.notRun(`the task ${task} was not run`);
  evidence(world, run);
  if (run.exitCode === NOT_SUPPORTED) return world.notApplicable(`the client does not do the task ${task} (exit 127)`);
  world.run = run;
  world.runs = world.parameters.runs.filter((other) => other.task === task);
  return undefined;
}

/** Every run of the chosen task, the plain one first; the staged ones' evidence joins the plain run's. */
export function everyRun(world: ClientWorld): TaskRun[] {
  for (const run of world.runs) if (run !== world.run) evidence(world, run);
  return world.runs;
}

/**
 * The run of the same task under the condition becomes the judged one; its control is the run
 * on the same offer without the condition. Where sxd did not stage it, `unstaged` says why.
 */
export function chooseStaged(
  world: ClientWorld,
  condition: StagedCondition,
  unstaged: (runs: TaskRun[]) => string,
): "skipped" | undefined {
  if (world.parameters.recorded) return notStaged(world, [condition]);
  const plain = world.run;
  if (!plain) throw new Error("no task run chosen (a bug in the feature)");
  const run = findRun(world, plain.task, condition);
  if (!run) return world.notRun(unstaged(world.runs));
  evidence(world, run);
  world.control = (run.offer && findRun(world, plain.task, run.offer)) ?? plain;
  world.run = run;
  return undefined;
}

/** The plain run stays the judged one; the runs under these conditions come beside it. */
export function chooseStagedRuns(world: ClientWorld, conditions: readonly StagedCondition[]): "skipped" | undefined {
  if (world.parameters.recorded) return notStaged(world, conditions);
  const plain = world.run;
  if (!plain) throw new Error("no task run chosen (a bug in the feature)");
  const runs = conditions.flatMap((condition) => findRun(world, plain.task, condition) ?? []);
  if (runs.length === 0) return world.notRun(`sxd did not stage ${conditions.join(", ")} (${endOf(plain)})`);
  for (const run of runs) evidence(world, run);
  world.staged = runs;
  return undefined;
}

/** A recording holds no staged condition: sxd stages one by running the task again, which only --run can. */
function notStaged(world: ClientWorld, conditions: readonly StagedCondition[]): "skipped" {
  return world.notRun(
    `sxd judges this row by running the task again under a condition it stages (${conditions.join(", ")}); what was ${world.parameters.recorded} cannot show that: run the client with --run`,
  );
}

export function judged(world: ClientWorld, grade: (run: TaskRun) => Grade): "skipped" | undefined {
  const run = world.run;
  if (!run) throw new Error("no task run chosen (a bug in the feature)");
  const { status, reason } = grade(run);
  if (status === "not run") return world.notRun(reason);
  if (status === "not applicable") return world.notApplicable(reason);
  if (status === "failed")
    throw new ConformanceFailure(reason.includes(endOf(run)) ? reason : `${reason} [${endOf(run)}]`);
  world.observe(reason);
  return undefined;
}

/** The control of a staged case (a bug in the feature where there is none). */
export function controlOf(world: ClientWorld): TaskRun {
  if (!world.control) throw new Error("no control run (a bug in the feature)");
  return world.control;
}
