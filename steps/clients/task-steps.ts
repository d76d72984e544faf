/** The steps that choose what a client scenario judges: a task's runs, or its run under a staged condition. */

import { withoutAnswer } from "../../harness/client/digest-grades.ts";
import type { TaskRun } from "../../harness/client/evidence.ts";
import { Given } from "../support/cucumber.ts";
import { chooseStaged, chooseStagedRuns, chooseTask } from "./judge.ts";
import type { ClientWorld } from "./world.ts";

/** Why sxd staged no condition that meets an answer: the client answered no challenge (CDIG-1 fails then). */
const unanswered = (runs: TaskRun[]) =>
  `sxd stages this on an offer the client answered, and ${withoutAnswer(runs)}: see CDIG-1`;

Given("the client has done the task {string}", function (this: ClientWorld, task: string) {
  return chooseTask(this, task);
});

Given("sxd answered its first credentials with 401 without stale=true", function (this: ClientWorld) {
  return chooseStaged(this, "wrong-credentials", unanswered);
});

Given("sxd answered its first PUT with 412, as if the entry had changed since its read", function (this: ClientWorld) {
  return chooseStaged(this, "precondition-failed", (runs) => `sxd did not stage the 412 (${runs.length} run(s))`);
});

Given("sxd answered its first right credentials with 401 and stale=true", function (this: ClientWorld) {
  return chooseStaged(this, "stale-nonce", unanswered);
});

Given("sxd ran it again with MD5 offered first, and with MD5 alone", function (this: ClientWorld) {
  return chooseStagedRuns(this, ["md5-first", "md5-only"]);
});

Given("sxd granted it with an rspauth that does not prove the secret", function (this: ClientWorld) {
  return chooseStaged(this, "wrong-rspauth", unanswered);
});
