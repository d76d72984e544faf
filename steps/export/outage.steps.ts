/**
 * Steps of the contacts server's outage (EXP-8), staged by the description's commands or, for
 * the bundled reference, by a messaging server whose contacts server is down; and of the
 * fallback upload (EXP-9), where the target takes one.
 */
import { withoutTrailingSlashes } from "../../lib/uri.ts";
import { After, Given, Then, When } from "../support/cucumber.ts";
import { expectThat } from "../support/expect.ts";
import { stopOwnContactsServer } from "../support/peer.ts";
import type { SxdWorld } from "../support/world.ts";
import {
  freshUserName,
  linkOf,
  onOutageServer,
  type ResultReading,
  stateOf,
  states,
  stopContactsServer,
  uploadList,
} from "./checks.ts";
import { readResult, resultAddress } from "./result.ts";

Given(
  "a messaging server whose contacts server cannot be reached",
  // The commands have time limits of their own (export.outage.timeoutMs).
  { timeout: -1 },
  async function (this: SxdWorld) {
    const state = stateOf(this);
    // The bundled reference runs a second messaging server whose contacts server is down.
    const bundled = this.parameters.outageMessagingUrl && withoutTrailingSlashes(this.parameters.outageMessagingUrl);
    const commands = this.target.export.outage;
    // Where sxd plays the contacts server (--peer contacts), it stops its own.
    const ownContacts = this.parameters.peer?.side === "contacts" ? this.parameters.peer : undefined;
    if (!bundled && !commands && !ownContacts) {
      return this.notRun(
        "sxd cannot take the target's contacts server down: state export.outage with the commands that stop and start it",
      );
    }
    const messagingUrl = bundled ?? state.messagingUrl;
    // A copy for the failed export to leave alone: an export while the contacts server is up,
    // or, where it is down from the start, the fallback upload if the target takes one.
    if (!bundled) await this.http.send("POST", linkOf(state).href);
    else if (this.target.export.upload) await uploadList(this, state, messagingUrl, state.user);
    state.outage = { messagingUrl, before: await readResult(this, resultAddress(this, state, messagingUrl)) };
    if (bundled) return undefined;
    if (ownContacts) return stopOwnContactsServer(this, state, ownContacts);
    return commands ? stopContactsServer(this, state, commands) : undefined;
  },
);

After({ tags: "@alone", timeout: -1 }, async function (this: SxdWorld) {
  const problem = await states.get(this)?.restart?.();
  // The description's start command is not the target: what it fails to do is not run, not failed.
  return problem === undefined ? undefined : this.notRun(problem);
});

When(
  "the client sends POST with no body to the export link's path on that messaging server",
  async function (this: SxdWorld) {
    const state = stateOf(this);
    // The spec wants a 5xx here: a 503 with Retry-After is the answer, not a rate limit.
    await this.http.send("POST", onOutageServer(state, linkOf(state).href), { unavailableIsAnswer: true });
  },
);

Then("the reply is a server error, not 303 See Other", function (this: SxdWorld) {
  const reply = this.reply;
  const status = reply.response.status;
  expectThat(
    status >= 500 && status <= 599,
    "a 5xx status reporting the failed backend request",
    `status ${status}`,
    reply,
  );
});

Then("that messaging server holds what it held before: nothing half imported", async function (this: SxdWorld) {
  const state = stateOf(this);
  if (!state.outage) throw new Error("no outage was staged in this scenario");
  const { before } = state.outage;
  const after = await readResult(this, resultAddress(this, state, state.outage.messagingUrl));
  // "Imports nothing" is half the row: where sxd cannot read the result, the row is not run, never passed.
  if (before.kind === "unreadable") return this.notRun(`nothing half imported cannot be checked: ${before.reason}`);
  if (after.kind === "unreadable") return this.notRun(`nothing half imported cannot be checked: ${after.reason}`);
  const held = (reading: ResultReading) => (reading.kind === "held" ? [...reading.contacts].sort() : []);
  const [was, is] = [held(before), held(after)];
  const changed = is.filter((contact, i) => contact !== was[i]);
  expectThat(
    is.length === was.length && changed.length === 0,
    `the export result at ${after.exchange.url} unchanged by the failed export (${was.length} contacts, as before it)`,
    `${is.length} contacts${changed.length > 0 ? `, e.g. ${changed[0]}` : ""}`,
    after.exchange,
  );
});

Given("the target takes contact uploads", function (this: SxdWorld) {
  const upload = this.target.export.upload;
  if (upload === false) return this.notApplicable("the target description states that the server takes no upload");
  return upload
    ? undefined
    : this.notRun(
        "state export.upload: where the messaging server takes the fallback upload, or false if it takes none",
      );
});

When(
  "the client uploads the contact list to the messaging server itself, for a fresh user",
  async function (this: SxdWorld) {
    const state = stateOf(this);
    // A fresh user, so that no export by another scenario can put these contacts where the check looks.
    state.otherUser = freshUserName();
    await uploadList(this, state, state.messagingUrl, state.otherUser);
  },
);

Then("the upload is accepted", function (this: SxdWorld) {
  const reply = this.reply;
  const status = reply.response.status;
  expectThat(
    (status >= 200 && status <= 299) || status === 303,
    "a 2xx or 303 reply to the upload",
    `status ${status}`,
    reply,
  );
});
