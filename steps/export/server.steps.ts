/**
 * Steps of the cross-server export (EXP rows): the contact list on the contacts server,
 * its export link, the POST that makes the messaging server fetch the contacts itself,
 * and what the messaging server holds afterwards. Addresses, the user, the relation and
 * the upload come from the target description; nothing here knows the reference's choices.
 */

import { stated } from "../../harness/description/target.ts";
import { headerOf } from "../../harness/evidence/exchange.ts";
import { isAbsoluteUri } from "../../lib/uri.ts";
import { holdsWhileRunning, mayStartBeside } from "../support/alone.ts";
import { Given, setParallelCanAssign, Then, When } from "../support/cucumber.ts";
import { expectThat, fail } from "../support/expect.ts";
import type { SxdWorld } from "../support/world.ts";
import {
  contactListOf,
  exportLinkOf,
  fetchList,
  linkOf,
  listOf,
  readListForScenario,
  resultUri,
  STATED_UNREADABLE,
  stateOf,
  states,
  THE_EXPORT_USER,
} from "./checks.ts";
import { countOccurrences, importToken } from "./contact-list.ts";
import { checkAllHeld, expectMissingNone, heldContacts, locationOf, resultAddress } from "./result.ts";

setParallelCanAssign(mayStartBeside);

Given("the target has a contacts server and a messaging server", function (this: SxdWorld) {
  const { contactsUrl, messagingUrl } = this.target;
  // The hook that runs before has left the scenario not run where either URL is not stated.
  if (!contactsUrl || !messagingUrl)
    throw new Error("an export scenario ran without both server URLs (a bug in the suite)");
  const { user } = stated(this.target, "export");
  states.set(this, {
    contactsUrl,
    messagingUrl,
    user,
    listUrl: `${contactsUrl}/user/${encodeURIComponent(user)}/contacts`,
  });
  return undefined;
});

When("the client fetches the user's contact list from the contacts server", async function (this: SxdWorld) {
  await fetchList(this, stateOf(this));
});

Given("the client has read the user's contact list", async function (this: SxdWorld) {
  await readListForScenario(this);
});

const READS_THE_EXPORT_LINK = "the client has read the export link from the user's contact list";
// Whoever holds the link may change the user's copy (and spend a single-use link): one such scenario at a time.
holdsWhileRunning(THE_EXPORT_USER, READS_THE_EXPORT_LINK);

Given(READS_THE_EXPORT_LINK, async function (this: SxdWorld) {
  const exchange = await readListForScenario(this);
  const state = stateOf(this);
  state.link = exportLinkOf(this, state, exchange);
});

Then("the reply is a contacts document that declares the Atom namespace", function (this: SxdWorld) {
  const list = contactListOf(this.reply);
  expectThat(
    list.declaresAtom,
    `a root contacts element declaring the Atom namespace (xmlns or xmlns:prefix = "http://www.w3.org/2005/Atom")`,
    "no such declaration on the root element",
    this.reply,
  );
});

Then("the contact list holds contact elements", function (this: SxdWorld) {
  const list = contactListOf(this.reply);
  expectThat(
    list.contacts.length > 0,
    "contact children of the contacts element (the export user of the target description needs at least one contact)",
    "none",
    this.reply,
  );
});

// EXP-2: the contact list names its own absolute URI.
Then('the contact list links rel="self" to its own absolute URI', function (this: SxdWorld) {
  const state = stateOf(this);
  const reply = this.reply;
  const selves = contactListOf(reply).links.filter((link) => link.rel === "self");
  if (selves.length === 0) fail('an atom:link rel="self"', "no self link", reply);
  const href = selves[0].href;
  if (!isAbsoluteUri(href)) fail("a self href that is an absolute URI", `href ${JSON.stringify(href)}`, reply);
  expectThat(
    new URL(href).href === new URL(state.listUrl).href,
    `the self href ${state.listUrl}`,
    `href ${href}`,
    reply,
  );
});

Then("the contact list has an export link whose rel is a URI", function (this: SxdWorld) {
  const state = stateOf(this);
  const link = exportLinkOf(this, state, this.reply);
  expectThat(
    isAbsoluteUri(link.rel),
    "an export relation that is a URI",
    `rel ${JSON.stringify(link.rel)}`,
    this.reply,
  );
});

Then(
  /^the export link's href is an absolute URI on the messaging server with the path "\/user\/<user>\/import;t=<token>"$/,
  function (this: SxdWorld) {
    const state = stateOf(this);
    const link = exportLinkOf(this, state, this.reply);
    const token = importToken(link.href, state.messagingUrl, state.user);
    if (!token.ok) {
      fail(
        `an href ${state.messagingUrl}/user/${encodeURIComponent(state.user)}/import;t=<token>`,
        `${token.error} (href ${link.href})`,
        this.reply,
      );
    }
  },
);

Then("the export link has a human-readable title", function (this: SxdWorld) {
  const state = stateOf(this);
  const link = exportLinkOf(this, state, this.reply);
  expectThat(
    link.title !== undefined && link.title.trim() !== "",
    "a title attribute with text on the export link",
    link.title === undefined ? "no title" : "an empty title",
    this.reply,
  );
});

When("the client sends POST with no body to the export link", async function (this: SxdWorld) {
  const state = stateOf(this);
  state.exportReply = await this.http.send("POST", linkOf(state).href);
});

When(
  "the client sends POST to the export link twice in a row, then {int} times at once",
  async function (this: SxdWorld, concurrent: number) {
    const state = stateOf(this);
    const href = linkOf(state).href;
    await this.http.send("POST", href);
    await this.http.send("POST", href);
    await Promise.all(Array.from({ length: concurrent }, () => this.http.send("POST", href)));
  },
);

Then("the export is accepted without any contact data from the client", function (this: SxdWorld) {
  const reply = this.reply;
  const status = reply.response.status;
  expectThat(
    status >= 200 && status <= 399,
    "the export to go ahead on a POST without a body (303 per the spec; at least not refused)",
    `status ${status}`,
    reply,
  );
});

Then("the reply's Location is the user's export result on the messaging server", function (this: SxdWorld) {
  const state = stateOf(this);
  const reply = this.reply;
  const location = headerOf(reply, "location");
  if (location === undefined) fail(`Location: ${resultUri(state)}`, "no Location header", reply);
  let resolved: string;
  try {
    // RFC 9110 §10.2.2 allows a relative reference, resolved against the request's URI.
    resolved = new URL(location, reply.url).href;
  } catch {
    fail(`Location: ${resultUri(state)}`, `Location: ${location}, which is not a URI reference`, reply);
  }
  expectThat(
    resolved === new URL(resultUri(state)).href,
    `Location: ${resultUri(state)}`,
    `Location: ${location}`,
    reply,
  );
});

// EXP-5: after the export, the messaging server holds every contact of the list.
Then(
  "the messaging server holds every contact of the list, read where the target description says",
  async function (this: SxdWorld) {
    const state = stateOf(this);
    const contacts = listOf(state).contacts;
    if (contacts.length === 0) {
      return this.notRun(
        "the user's contact list is empty, so no contact can be seen to arrive: name a user with contacts in export.user",
      );
    }
    const check = await checkAllHeld(this, state, contacts);
    if (check.kind === "unreadable") return this.notRun(check.reason);
    if (check.kind === "missing") fail(check.expected, check.got, check.exchange);
    return undefined;
  },
);

Then("the messaging server's export result lists every contact of the list", async function (this: SxdWorld) {
  const state = stateOf(this);
  if (this.target.export.result === false) return this.notRun(STATED_UNREADABLE);
  const location = locationOf(state);
  if ("problem" in location) fail("a Location to GET the export result from", location.problem, state.exportReply);
  const reading = await heldContacts(this, location.url);
  expectMissingNone(reading, listOf(state).contacts, `GET ${location.url} to show every contact of the list`);
  return undefined;
});

Then(
  "the messaging server's export result for that user lists every contact of the list",
  async function (this: SxdWorld) {
    const state = stateOf(this);
    const address = resultAddress(this, state, state.messagingUrl, state.otherUser);
    if ("problem" in address) return this.notRun(STATED_UNREADABLE);
    const reading = await heldContacts(this, address.url);
    expectMissingNone(
      reading,
      listOf(state).contacts,
      `the export result at ${address.url} to hold every contact of the list`,
    );
    return undefined;
  },
);

// EXP-7: exports of one link, repeated or at once, leave each contact once.
Then(
  "the messaging server's export result lists each contact of the list exactly once",
  async function (this: SxdWorld) {
    const state = stateOf(this);
    const address = resultAddress(this, state);
    if ("problem" in address) return this.notRun(STATED_UNREADABLE);
    const { exchange, contacts: held } = await heldContacts(this, address.url);
    const wrong = [...countOccurrences(listOf(state).contacts, held)].filter(([, n]) => n !== 1);
    const duplicates = held.filter((contact, index) => held.indexOf(contact) !== index);
    expectThat(
      wrong.length === 0 && duplicates.length === 0,
      `the export result at ${address.url} to show each contact of the list once`,
      wrong.length > 0 ? `${wrong[0][0]} shown ${wrong[0][1]} times` : `${duplicates[0]} shown more than once`,
      exchange,
    );
    return undefined;
  },
);
