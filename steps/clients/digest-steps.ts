/**
 * The steps of the digest client features: pick the recorded run of a task, then grade it
 * with the pure functions of harness/client/. Each grade's reason is attached, passed or not,
 * so the report says what the client did.
 */
import { gradeBodyDigest, gradeDirectives, gradeResponse } from "../../harness/client/digest-grades.ts";
import {
  gradeNonceCount,
  gradeNoRetryOfWrongCredentials,
  gradeQuoting,
  gradeSecretKept,
} from "../../harness/client/digest-habits.ts";
import { endOf, type Grade, NOT_SUPPORTED, type StagedCondition, type TaskRun } from "../../harness/client/evidence.ts";
import { clientOutput, runExchanges } from "../../harness/client/transcript.ts";
import { EXCHANGES_MEDIA_TYPE } from "../../harness/outcomes.ts";
import { Given, Then } from "../support/cucumber.ts";
import { ConformanceFailure } from "../support/expect.ts";
import type { ClientWorld } from "./world.ts";

function evidence(world: ClientWorld, run: TaskRun): void {
  world.attach(clientOutput(run), "text/plain");
  world.attach(JSON.stringify(runExchanges(run)), EXCHANGES_MEDIA_TYPE);
}

function findRun(world: ClientWorld, task: string, condition?: StagedCondition): TaskRun | undefined {
  return world.parameters.runs.find((run) => run.task === task && run.condition === condition);
}

Given("the client has done the task {string}", function (this: ClientWorld, task: string) {
  const run = findRun(this, task);
  if (!run) return this.skipped(`the task ${task} was not run`);
  evidence(this, run);
  if (run.exitCode === NOT_SUPPORTED) return this.skipped(`the client does not do the task ${task} (it exited 127)`);
  this.run = run;
  return undefined;
});

Given("sxd answered its first credentials with 401 without stale=true", function (this: ClientWorld) {
  const control = this.run;
  const run = control && findRun(this, control.task, "wrong-credentials");
  if (!control || !run)
    return this.skipped(`the same task without the refusal did not succeed (${control && endOf(control)}): see CDIG-2`);
  evidence(this, run);
  [this.control, this.run] = [control, run];
  return undefined;
});

function judged(world: ClientWorld, grade: (run: TaskRun) => Grade): "skipped" | undefined {
  const run = world.run;
  if (!run) throw new Error("no task run chosen (a bug in the feature)");
  const { status, reason } = grade(run);
  if (status === "not run" || status === "not applicable") return world.skipped(reason, status);
  if (status === "failed")
    throw new ConformanceFailure(reason.includes(endOf(run)) ? reason : `${reason} [${endOf(run)}]`);
  world.attach(reason, "text/plain");
  return undefined;
}

Then("every Digest answer it sent carries the directives as challenged", function (this: ClientWorld) {
  return judged(this, (run) => gradeDirectives(run, this.parameters.user));
});

Then("each response is the digest of the user's secret", function (this: ClientWorld) {
  return judged(this, (run) => gradeResponse(run, this.parameters.user));
});

Then("the secret is in no request it sent", function (this: ClientWorld) {
  return judged(this, (run) => gradeSecretKept(run, this.parameters.user));
});

Then("an auth-int answer hashes the body it sent", function (this: ClientWorld) {
  return judged(this, (run) => gradeBodyDigest(run, this.parameters.user));
});

Then("nc counts the uses of each nonce from 00000001", function (this: ClientWorld) {
  return judged(this, gradeNonceCount);
});

Then("the directives are quoted as RFC 7616 §3.4 writes them", function (this: ClientWorld) {
  return judged(this, gradeQuoting);
});

Then("it sends no more credentials computed from the same secret", function (this: ClientWorld) {
  const control = this.control;
  if (!control) throw new Error("no control run (a bug in the feature)");
  return judged(this, (run) => gradeNoRetryOfWrongCredentials(run, control, this.parameters.user));
});
