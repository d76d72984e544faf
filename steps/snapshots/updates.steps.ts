/**
 * Steps of updating and creating (SNAP-2, SNAP-11, SNAP-12, SNAP-13): a stale or defective
 * update counts as refused only where the same update without the defect then gets in.
 */

import { CLOCK_STEP } from "../../harness/judging/scenarios.ts";
import { sleep } from "../../harness/wire/rate-limits.ts";
import { parseHttpDate } from "../../lib/http-date.ts";
import { AfterAll, Before, BeforeAll, Given, Then, When } from "../support/cucumber.ts";
import { expectThat, fail } from "../support/expect.ts";
import { runParameters } from "../support/suite-client.ts";
import type { SxdWorld } from "../support/world.ts";
import { attemptOf, expectNothingChanged, putNextVersion, updateTimes, validatorsOf } from "./checks.ts";
import { createScratch, dropEarlyResource, makeEarlyResource, waitsForClock } from "./resources.ts";
import {
  BAD_BODIES,
  controlGetsIn,
  entryBody,
  FIXED_WAIT_MS,
  isSuccess,
  nextVersion,
  readCurrent,
  resourceOf,
  untilServerSecondAfter,
} from "./snapshots.ts";

// Where one process runs the scenarios, the harness asks for a resource made before the first
// one, for the scenario that waits for the target's clock (CLOCK_STEP: the lost update, SNAP-11).
BeforeAll(function () {
  const parameters = runParameters(this);
  if (parameters.earlyResourceFor !== undefined) makeEarlyResource(parameters, parameters.earlyResourceFor);
});

Before(function (this: SxdWorld, { pickle }) {
  if (pickle.steps.some((step) => step.text === CLOCK_STEP)) waitsForClock(this);
});

AfterAll(dropEarlyResource);

Given(CLOCK_STEP, async function (this: SxdWorld) {
  // A later second than the client's read: whole-second dates can then tell the versions apart.
  const resource = resourceOf(this);
  const read = resource.remembered?.lastModified;
  await untilServerSecondAfter(this.http, resource.url, read);
  const skipped = await updateTimes(this, 1, []);
  if (skipped || read === undefined) return skipped;
  // A Date from another clock than Last-Modified's (a proxy's) may have ended the wait early:
  // then the other client updates once more, a full second later.
  await readCurrent(this, resource);
  if (sameSecond(resource.lastRead?.lastModified, read)) {
    await sleep(FIXED_WAIT_MS);
    return updateTimes(this, 1, []);
  }
  return undefined;
});

function sameSecond(a: string | undefined, b: string): boolean {
  return parseHttpDate(a)?.getTime() === parseHttpDate(b)?.getTime();
}

Given("the resource's Last-Modified is now later than the one the client read", async function (this: SxdWorld) {
  const resource = resourceOf(this);
  const held = parseHttpDate(resource.remembered?.lastModified);
  const reply = await readCurrent(this, resource);
  const now = parseHttpDate(resource.lastRead?.lastModified);
  expectThat(
    held !== undefined && now !== undefined && now.getTime() > held.getTime(),
    `a Last-Modified later than the one read before the update (${resource.remembered?.lastModified ?? "none"})`,
    `Last-Modified: ${resource.lastRead?.lastModified ?? "none"}`,
    reply,
  );
});

When(
  "the client PUTs the next version with If-Unmodified-Since set to the Last-Modified last read",
  async function (this: SxdWorld) {
    const resource = resourceOf(this);
    const lastModified = resource.remembered?.lastModified;
    if (!lastModified) fail("a Last-Modified on the resource, to send back as If-Unmodified-Since", "none", this.reply);
    await putNextVersion(this, resource, { "if-unmodified-since": lastModified });
  },
);

When(
  "the client PUTs {string} with Content-Type {string} and {string}",
  async function (this: SxdWorld, body: string, contentType: string, precondition: string) {
    const resource = resourceOf(this);
    const text = body === "the next version" ? undefined : BAD_BODIES[body];
    if (body !== "the next version" && text === undefined) throw new Error(`no body named "${body}" in the suite`);
    const headers: Record<string, string> = { "content-type": contentType };
    if (precondition === "the validators last read") Object.assign(headers, validatorsOf(resource.remembered));
    else if (precondition !== "no precondition")
      throw new Error(`no precondition named "${precondition}" in the suite`);
    const version = nextVersion(resource);
    const reply = await this.http.send("PUT", resource.url, {
      headers,
      body: text?.replaceAll("{id}", resource.id) ?? entryBody(resource.id, version),
    });
    resource.attempt = { version, reply, readBefore: resource.lastRead?.reply };
    if (text === undefined && isSuccess(reply)) resource.versions.push(version);
  },
);

Then("the same update without the defect gets in", async function (this: SxdWorld) {
  const resource = resourceOf(this);
  const problem = await controlGetsIn(this, resource, validatorsOf(resource.remembered));
  return problem === undefined ? undefined : this.notRun(problem);
});

Then("the same update with the Last-Modified read now gets in", async function (this: SxdWorld) {
  const resource = resourceOf(this);
  await readCurrent(this, resource);
  const problem = await controlGetsIn(this, resource, validatorsOf(resource.lastRead));
  return problem === undefined ? undefined : this.notRun(problem);
});

Then("the stale/defective update got {int}", function (this: SxdWorld, status: number) {
  const reply = attemptOf(this).reply;
  expectThat(reply.response.status === status, `status ${status}`, `status ${reply.response.status}`, reply);
});

When("the client PUTs an entry with If-None-Match: * to an unused address", async function (this: SxdWorld) {
  if (this.target.snapshots.resources) {
    return this.notApplicable(
      "the target description names existing resources (snapshots.resources) instead of creation",
    );
  }
  await createScratch(this);
  return undefined;
});

Then(
  "the update is refused and changed nothing: the resource is as read before it, with no new snapshot",
  function (this: SxdWorld) {
    return expectNothingChanged(this);
  },
);
