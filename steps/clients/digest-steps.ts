/**
 * The Then steps of the digest client features: each grades the chosen run with a pure
 * function of harness/client/.
 */

import { asClaimed } from "../../harness/client/description.ts";
import { gradeAlgorithmChoice } from "../../harness/client/digest-algorithms.ts";
import { gradeBodyDigest, gradeDirectives, gradeResponse } from "../../harness/client/digest-grades.ts";
import {
  gradeNonceCount,
  gradeNoRetryOfWrongCredentials,
  gradeQuoting,
  gradeSecretKept,
} from "../../harness/client/digest-habits.ts";
import { gradeRspauthChecked, gradeStaleRetry } from "../../harness/client/digest-stale.ts";
import { Then } from "../support/cucumber.ts";
import { controlOf, everyRun, judged } from "./judge.ts";
import type { ClientWorld } from "./world.ts";

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
