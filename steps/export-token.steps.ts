/**
 * Steps of the link token (EXP-6): each flawed POST differs from the accepted one by its token
 * alone, and counts only where that same POST with the token as served got in.
 */
import { Given, Then, When } from "./support/cucumber.ts";
import { expectThat, fail } from "./support/expect.ts";
import { expectNoneHeld, exported, linkOf, listOf, resultUri, stateOf } from "./support/export-checks.ts";
import { forgedLike, randomToken, tailChanged } from "./support/tokens.ts";
import type { SxdWorld } from "./support/world.ts";

Given("the same POST with the export link as served exports", async function (this: SxdWorld) {
  // The control: the flawed requests below differ from this one by their token alone.
  const state = stateOf(this);
  const control = await this.http.send("POST", linkOf(state).href);
  return exported(control.response.status)
    ? undefined
    : this.notRun(`the same request without the defect was refused too (status ${control.response.status}): see EXP-4`);
});

When(
  /^the client sends POST with no body to the export link with (no token|an altered token|a forged token of its shape|its token with the tail changed|a random token|its token on another user's import address)$/,
  async function (this: SxdWorld, variation: string) {
    const state = stateOf(this);
    const href = linkOf(state).href;
    // The token is found wherever the link carries it: a link of the wrong shape is EXP-3's failure, not this row's.
    const found = /([;?&])t=([^;?&#/]*)/.exec(href);
    if (!found) fail("an export link carrying a token parameter t", `href ${href}`, state.listExchange);
    const token = found[2];
    const withToken = (value: string) =>
      `${href.slice(0, found.index)}${value === "" ? "" : `${found[1]}t=${value}`}${href.slice(found.index + found[0].length)}`;
    let url: string;
    switch (variation) {
      case "no token":
        url = withToken("");
        break;
      case "an altered token": {
        // The middle character: the ends of an encoded value may carry bits a decoder ignores.
        const middle = Math.floor(token.length / 2);
        const swapped = token[middle] === "A" ? "B" : "A";
        url = withToken(`${token.slice(0, middle)}${swapped}${token.slice(middle + 1)}`);
        break;
      }
      case "a forged token of its shape":
        url = withToken(forgedLike(token));
        break;
      case "its token with the tail changed":
        url = withToken(tailChanged(token));
        break;
      case "a random token":
        url = withToken(randomToken());
        break;
      default: {
        const otherUser = this.target.export.otherUser;
        if (!otherUser) {
          // A user the contacts server does not know may be refused for that alone, whatever the token.
          return this.notRun("state export.otherUser to check that a token is bound to its user");
        }
        const own = `/user/${encodeURIComponent(state.user)}/`;
        if (!href.includes(own)) {
          return this.notRun(
            `the export link ${href} does not carry the user's path ${own} (EXP-3 checks its shape), so there is no import address to put another user in`,
          );
        }
        state.otherUser = otherUser;
        url = href.replace(own, `/user/${encodeURIComponent(otherUser)}/`);
      }
    }
    await this.http.send("POST", url);
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
