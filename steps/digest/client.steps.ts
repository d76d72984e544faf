/**
 * The digest client features' steps: the runs sxd staged (CDIG-6, -7, -8, -10), and the Then
 * steps, each grading the chosen runs with a pure function of this folder.
 */

import { asClaimed } from "../../harness/client/description.ts";
import type { TaskRun } from "../../harness/evidence/client-evidence.ts";
import { chooseStaged, chooseStagedRuns, controlOf, everyRun, judged } from "../support/client-judge.ts";
import type { ClientWorld } from "../support/client-world.ts";
import { Given, Then } from "../support/cucumber.ts";
import { gradeAlgorithmChoice } from "./client-algorithms.ts";
import { gradeBodyDigest, gradeDirectives, gradeResponse, withoutAnswer } from "./client-grades.ts";
import { gradeNonceCount, gradeNoRetryOfWrongCredentials, gradeQuoting, gradeSecretKept } from "./client-habits.ts";
import { gradeRspauthChecked, gradeStaleRetry } from "./client-stale.ts";

/** Why sxd staged no condition that meets an answer: the client answered no challenge (CDIG-1 fails then). */
const unanswered = (runs: TaskRun[]) =>
  `sxd stages this on an offer the client answered, and ${withoutAnswer(runs)}: see CDIG-1`;

Given("sxd answered its first credentials with 401 without stale=true", function (this: ClientWorld) {
  return chooseStaged(this, "wrong-credentials", unanswered);
});

Given("sxd answered its first right credentials with 401 and stale=true", function (this: ClientWorld) {
  return chooseStaged(this, "stale-nonce", unanswered);
});

/**
 * The runs with the other offers. A recording holds none: it is judged by what one exchange
 * shows by itself (an algorithm not offered; several offered, MD5 among them, none answered),
 * and is otherwise not run. digest-post stages them only while the client has answered none:
 * where it answered at once, its plain run is judged alone.
 */
function otherOffers(world: ClientWorld, always: boolean): "skipped" | undefined {
  const conditions = ["md5-first", "md5-only"] as const;
  if (world.parameters.recorded && gradeAlgorithmChoice(world.runs, world.parameters.user).status === "failed")
    return undefined;
  if (always || world.parameters.recorded) return chooseStagedRuns(world, conditions);
  const staged = world.runs.some((run) => run.condition !== undefined && conditions.includes(run.condition as never));
  return staged ? chooseStagedRuns(world, conditions) : undefined;
}

Given("sxd ran it again with MD5 offered first, and with MD5 alone", function (this: ClientWorld) {
  return otherOffers(this, true);
});

Given(
  "sxd ran it again with MD5 offered first, and with MD5 alone, where it answered none",
  function (this: ClientWorld) {
    return otherOffers(this, false);
  },
);

Given("sxd granted it with an rspauth that does not prove the secret", function (this: ClientWorld) {
  return chooseStaged(this, "wrong-rspauth", unanswered);
});

Then("every Digest answer it sent carries the directives as challenged", function (this: ClientWorld) {
  return judged(this, () => gradeDirectives(everyRun(this), this.parameters.user));
});

Then("each response is the digest of the user's secret", function (this: ClientWorld) {
  return judged(this, () => gradeResponse(everyRun(this), this.parameters.user));
});

Then("the secret is in no request it sent", function (this: ClientWorld) {
  return judged(this, () => gradeSecretKept(everyRun(this), this.parameters.user));
});

Then("an auth-int answer hashes the body it sent", function (this: ClientWorld) {
  return judged(this, () => gradeBodyDigest(everyRun(this), this.parameters.user));
});

Then("nc counts the uses of each nonce from 00000001", function (this: ClientWorld) {
  return judged(this, () => gradeNonceCount(everyRun(this)));
});

Then("the directives are quoted as RFC 7616 §3.4 writes them", function (this: ClientWorld) {
  return judged(this, () => gradeQuoting(everyRun(this)));
});

Then("it sends no more credentials computed from the same secret", function (this: ClientWorld) {
  return judged(this, (run) => gradeNoRetryOfWrongCredentials(run, this.parameters.user));
});

Then("answering again with the new nonce, without new credentials, takes the option", function (this: ClientWorld) {
  const { user, description } = this.parameters;
  return judged(this, (run) => asClaimed(gradeStaleRetry(run, user), description, "digest.retriesStale"));
});

Then(
  "each time it answered the first offered algorithm it supports, never one not offered",
  function (this: ClientWorld) {
    return judged(this, (run) => gradeAlgorithmChoice([run, ...this.staged], this.parameters.user));
  },
);

Then("treating that reply as a failure takes the option", function (this: ClientWorld) {
  const { description } = this.parameters;
  return judged(this, (run) =>
    asClaimed(gradeRspauthChecked(run, controlOf(this), this.parameters.user), description, "digest.checksRspauth"),
  );
});
