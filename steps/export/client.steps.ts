/** The export client feature's steps: the fallback sxd stages (CEXP-4), and the Then steps, each grading the chosen run with a pure function of this folder. */
import { unclaimed } from "../../harness/client/description.ts";
import { chooseStagedRuns, judged } from "../support/client-judge.ts";
import type { ClientWorld } from "../support/client-world.ts";
import { Given, Then } from "../support/cucumber.ts";
import { gradeFallback } from "./client-fallback.ts";
import { gradeLinkAsServed, gradeNoBody, gradeSeeOther } from "./client-grades.ts";

Then("its export starts with a POST to the export link's href, as served", function (this: ClientWorld) {
  return judged(this, gradeLinkAsServed);
});

Then("that POST carries no body", function (this: ClientWorld) {
  return judged(this, gradeNoBody);
});

Then("it follows the 303 with GET on its Location and does not POST again", function (this: ClientWorld) {
  return judged(this, gradeSeeOther);
});

Given("the client description says the client has the fallback", function (this: ClientWorld) {
  const grade = unclaimed(this.parameters.description, "export.fallback");
  if (!grade) return undefined;
  return grade.status === "not applicable" ? this.notApplicable(grade.reason) : this.notRun(grade.reason);
});

Given(
  "sxd ran it again with the contact list served without its export link, and with the export POST answered 503",
  function (this: ClientWorld) {
    return chooseStagedRuns(this, ["no-export-link", "import-fails"]);
  },
);

Then(
  "each time it downloaded the list and uploaded every contact to the messaging server once",
  function (this: ClientWorld) {
    return judged(this, () => gradeFallback(this.staged));
  },
);
