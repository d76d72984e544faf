/**
 * Steps every behaviour shares: the status, the media type and the error body of the
 * last reply. Phrased as the spec phrases replies.
 */
import { headerOf } from "../../harness/evidence/exchange.ts";
import { mediaTypeMatches } from "../../lib/media-type.ts";
import { defineParameterType, Then } from "./cucumber.ts";
import { expectErrorBody } from "./error-body.ts";
import { expectThat } from "./expect.ts";
import type { SxdWorld } from "./world.ts";

/** "404 or 410", "400, 401 or 403": a set of statuses the row allows. */
defineParameterType({
  name: "statuses",
  regexp: /\d{3}(?:(?:, | or )\d{3})*/,
  transformer: (text: string) => text.split(/, | or /).map(Number),
});

Then("the reply is {int}", function (this: SxdWorld, status: number) {
  const reply = this.reply;
  expectThat(reply.response.status === status, `status ${status}`, `status ${reply.response.status}`, reply);
});

Then("the reply is one of {statuses}", function (this: SxdWorld, statuses: number[]) {
  const reply = this.reply;
  expectThat(
    statuses.includes(reply.response.status),
    `one of the statuses ${statuses.join(", ")}`,
    `status ${reply.response.status}`,
    reply,
  );
});

Then("the reply is not a success", function (this: SxdWorld) {
  const reply = this.reply;
  const status = reply.response.status;
  expectThat(status < 200 || status > 299, "a status outside 2xx", `status ${status}`, reply);
});

Then("the reply's Content-Type is {string}", function (this: SxdWorld, expected: string) {
  const reply = this.reply;
  const actual = headerOf(reply, "content-type");
  expectThat(
    mediaTypeMatches(actual, expected),
    `Content-Type ${expected}`,
    `Content-Type ${actual ?? "(none)"}`,
    reply,
  );
});

Then("the reply carries an XML error body with a message", function (this: SxdWorld) {
  expectErrorBody(this.reply);
});
