/** The steps that choose what a client scenario judges: a task's run, or its run under a staged condition. */
import { Given } from "../support/cucumber.ts";
import { chooseStaged, chooseStagedRuns, chooseTask } from "./judge.ts";
import type { ClientWorld } from "./world.ts";

Given("the client has done the task {string}", function (this: ClientWorld, task: string) {
  return chooseTask(this, task);
});

Given("sxd answered its first credentials with 401 without stale=true", function (this: ClientWorld) {
  return chooseStaged(this, "wrong-credentials", "CDIG-2");
});

Given("sxd answered its first PUT with 412, as if the entry had changed since its read", function (this: ClientWorld) {
  return chooseStaged(this, "precondition-failed", "CSNAP-1");
});

Given("sxd answered its first right credentials with 401 and stale=true", function (this: ClientWorld) {
  return chooseStaged(this, "stale-nonce", "CDIG-2");
});

Given("sxd ran it again with MD5 offered first, and with MD5 alone", function (this: ClientWorld) {
  return chooseStagedRuns(this, ["md5-first", "md5-only"], "CDIG-2");
});

Given("sxd granted it with an rspauth that does not prove the secret", function (this: ClientWorld) {
  return chooseStaged(this, "wrong-rspauth", "CDIG-2");
});
