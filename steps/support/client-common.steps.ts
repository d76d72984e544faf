/** The step every client scenario opens with: the runs of a task, what the scenario judges. */

import { chooseTask } from "./client-judge.ts";
import type { ClientWorld } from "./client-world.ts";
import { Given } from "./cucumber.ts";

Given("the client has done the task {string}", function (this: ClientWorld, task: string) {
  return chooseTask(this, task);
});
