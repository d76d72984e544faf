/**
 * Steps of the link token (EXP-6): each flawed POST differs from the accepted one by its token
 * alone, is built on a link the control did not use, and counts only where that same POST
 * without the flaw got in both before it and right after it. The Then steps judge the
 * flawed reply, not the one sent after it.
 */
import { Given, Then, When } from "../support/cucumber.ts";
import { expectThat } from "../support/expect.ts";
import type { SxdWorld } from "../support/world.ts";
import { exported, linkOf, listOf, resultUri, stateOf } from "./checks.ts";
import { expectNoneHeld } from "./result.ts";
import { type FlawedPost, flawedLink, linkAfterControl, TOKEN_FLAWS, unflawedStillExports } from "./token-flaws.ts";

Given("the same POST with the export link as served exports", async function (this: SxdWorld) {
  const control = await this.http.send("POST", linkOf(stateOf(this)).href);
  return exported(control.response.status)
    ? undefined
    : this.notRun(`the same request without the defect was refused too (status ${control.response.status}): see EXP-4`);
});

When(
  new RegExp(`^the client sends POST with no body to the export link with (${Object.keys(TOKEN_FLAWS).join("|")})$`),
  async function (this: SxdWorld, flaw: string) {
    const state = stateOf(this);
    const fresh = await linkAfterControl(this, state);
    if ("notRun" in fresh) return this.notRun(fresh.notRun);
    const base = fresh.href;
    const flawed = flawedLink(flaw, { href: base, user: state.user, otherUser: this.target.export.otherUser });
    if ("notRun" in flawed) return this.notRun(flawed.notRun);
    state.otherUser = flawed.otherUser;
    const post: FlawedPost = {
      base,
      reused: base === linkOf(state).href,
      reply: await this.http.send("POST", flawed.url),
    };
    if (exported(post.reply.response.status)) return undefined;
    const problem = await unflawedStillExports(this, post);
    if (problem !== undefined) return this.notRun(problem);
    this.judgeReply(post.reply);
    return undefined;
  },
);

Then("the link does not export: the reply is neither 303 nor a success", function (this: SxdWorld) {
  const reply = this.reply;
  const status = reply.response.status;
  expectThat(!exported(status), "no export: neither 303 nor 2xx", `status ${status}`, reply);
});

Then("the messaging server holds none of the list's contacts for that other user", async function (this: SxdWorld) {
  const state = stateOf(this);
  if (!state.otherUser) throw new Error("no other user's import address was used in this scenario");
  await expectNoneHeld(this, resultUri(state, state.otherUser), listOf(state).contacts);
});
