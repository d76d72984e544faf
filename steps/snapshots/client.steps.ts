/** The snapshot client features' steps: the 412 sxd stages (CSNAP-4), and the Then steps, each grading the chosen run with a pure function of this folder. */

import { chooseStaged, judged } from "../support/client-judge.ts";
import type { ClientWorld } from "../support/client-world.ts";
import { Given, Then } from "../support/cucumber.ts";
import { gradeIdKept, gradeRereadAfter412, gradeUnmodifiedSince, gradeUpdateForm } from "./client-grades.ts";
import { gradeWalk } from "./client-history.ts";

Given("sxd answered its first PUT with 412, as if the entry had changed since its read", function (this: ClientWorld) {
  return chooseStaged(this, "precondition-failed", (runs) => `sxd did not stage the 412 (${runs.length} run(s))`);
});

Then(
  "every PUT it sent is an Atom entry with author, title, id and content, typed as one",
  function (this: ClientWorld) {
    return judged(this, gradeUpdateForm);
  },
);

Then("every PUT carries If-Unmodified-Since equal to the Last-Modified it last read", function (this: ClientWorld) {
  return judged(this, gradeUnmodifiedSince);
});

Then("every PUT keeps the entry id it read", function (this: ClientWorld) {
  return judged(this, gradeIdKept);
});

Then("it reads the entry again before any other PUT", function (this: ClientWorld) {
  return judged(this, gradeRereadAfter412);
});

Then("every version it read was reached by a previous or next link as served", function (this: ClientWorld) {
  return judged(this, gradeWalk);
});
