/** The Then steps of the export client feature: each grades the chosen run with a pure function of harness/client/. */
import { gradeLinkAsServed, gradeNoBody, gradeSeeOther } from "../../harness/client/export-grades.ts";
import { Then } from "../support/cucumber.ts";
import { judged } from "./judge.ts";
import type { ClientWorld } from "./world.ts";

Then("its export starts with a POST to the export link's href, as served", function (this: ClientWorld) {
  return judged(this, gradeLinkAsServed);
});

Then("that POST carries no body", function (this: ClientWorld) {
  return judged(this, gradeNoBody);
});

Then("it follows the 303 with GET on its Location and does not POST again", function (this: ClientWorld) {
  return judged(this, gradeSeeOther);
});
