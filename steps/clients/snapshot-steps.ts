/** The Then steps of the snapshot client features: each grades the chosen run with a pure function of harness/client/. */
import { gradeWalk } from "../../harness/client/history-grades.ts";
import {
  gradeIdKept,
  gradeRereadAfter412,
  gradeUnmodifiedSince,
  gradeUpdateForm,
} from "../../harness/client/snapshot-grades.ts";
import { Then } from "../support/cucumber.ts";
import { judged } from "./judge.ts";
import type { ClientWorld } from "./world.ts";

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
