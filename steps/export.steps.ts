/**
 * Steps of the cross-server export (EXP rows): the contact list on the contacts server,
 * its export link, the POST that makes the messaging server fetch the contacts itself,
 * and what the messaging server holds afterwards. Addresses, the user, the relation and
 * the upload come from the target description; nothing here knows the reference's choices.
 */
import { After, Given, setParallelCanAssign, Then, When } from "@cucumber/cucumber";
import { type Answered, headerOf } from "../harness/exchange.ts";
import { probe } from "../harness/probe.ts";
import type { OutageCommands } from "../harness/target.ts";
import { mayStartBeside } from "./support/alone.ts";
import { type CommandRun, describeRun, runCommand, succeeded } from "./support/commands.ts";
import {
  type ContactList,
  contactsAnywhere,
  countOccurrences,
  findExportLink,
  importToken,
  isAbsoluteUri,
  type ListLink,
  readContactList,
} from "./support/contact-list.ts";
import { expectThat, fail } from "./support/expect.ts";
import { forgedLike, randomToken, tailChanged } from "./support/tokens.ts";
import type { SxdWorld } from "./support/world.ts";

interface ExportState {
  contactsUrl: string;
  messagingUrl: string;
  user: string;
  listUrl: string;
  listExchange?: Answered;
  list?: ContactList;
  link?: ListLink & { href: string };
  /** The reply to the POST of the export link, whose Location leads to the result. */
  exportReply?: Answered;
  /** The user whose import address got the first user's token (export.otherUser), or the upload's fresh user. */
  otherUser?: string;
  /** EXP-8: the messaging server whose contacts server is down, and what it held before. */
  outage?: { messagingUrl: string; before: ResultReading };
  /** EXP-8 on an external target: brings the contacts server back once it was stopped; says what went wrong. */
  restart?: () => Promise<string | undefined>;
}

/** What a read of the export result showed. */
type ResultReading =
  | { kind: "held"; contacts: string[]; exchange: Answered }
  /** A 204 or 4xx: the server holds nothing for the user there. */
  | { kind: "nothing"; exchange: Answered }
  | { kind: "unreadable"; reason: string; exchange?: Answered };

const states = new WeakMap<SxdWorld, ExportState>();

/** Each outage command's time limit, and how long the contacts server may take to answer again. */
const DEFAULT_OUTAGE_TIMEOUT_MS = 30000;

const STATED_UNREADABLE = "the target description states that the export result cannot be read (export.result: false)";

setParallelCanAssign(mayStartBeside);

/** The payload of the fallback upload is the contact list as the contacts server served it. */
const DEFAULT_UPLOAD_TYPE = "application/xml;charset=UTF-8";

function stateOf(world: SxdWorld): ExportState {
  const state = states.get(world);
  if (!state) throw new Error("export step used before 'the target has a contacts server and a messaging server'");
  return state;
}

/** The export result where the spec puts it: {messaging_url}/user/<user>, the Location EXP-4 requires. */
function resultUri(state: ExportState, user = state.user, messagingUrl = state.messagingUrl): string {
  return `${messagingUrl}/user/${encodeURIComponent(user)}`;
}

Given("the target has a contacts server and a messaging server", function (this: SxdWorld) {
  const { contactsUrl, messagingUrl, export: exp } = this.target;
  if (!contactsUrl || !messagingUrl) return this.notRun("no contacts and messaging server URLs were given");
  const user = exp.user;
  states.set(this, {
    contactsUrl,
    messagingUrl,
    user,
    listUrl: `${contactsUrl}/user/${encodeURIComponent(user)}/contacts`,
  });
  return undefined;
});

When("the client fetches the user's contact list from the contacts server", async function (this: SxdWorld) {
  const state = stateOf(this);
  state.listExchange = await this.http.send("GET", state.listUrl, { headers: { accept: "application/xml" } });
});

/** Reads the list a scenario builds on; anything but 200 ends the scenario here. */
async function readListForScenario(world: SxdWorld): Promise<Answered> {
  const state = stateOf(world);
  const exchange = await world.http.send("GET", state.listUrl, { headers: { accept: "application/xml" } });
  state.listExchange = exchange;
  expectThat(
    exchange.response.status === 200,
    "the contact list (200)",
    `status ${exchange.response.status}`,
    exchange,
  );
  state.list = contactListOf(exchange);
  return exchange;
}

Given("the client has read the user's contact list", async function (this: SxdWorld) {
  await readListForScenario(this);
});

Given("the client has read the export link from the user's contact list", async function (this: SxdWorld) {
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

Then("the link does not export: the reply is neither 303 nor a success", function (this: SxdWorld) {
  const reply = this.reply;
  const status = reply.response.status;
  expectThat(!exported(status), "no export: neither 303 nor 2xx", `status ${status}`, reply);
});

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
    const stated = this.target.export.result;
    if (stated === false)
      return this.notRun("the target description states that the export result cannot be read (export.result: false)");
    const address = stated !== undefined && stated !== "location" ? resultAddress(this, state) : locationOf(state);
    const reading = await readResult(this, address);
    if (reading.kind === "held") {
      expectMissingNone(
        reading,
        contacts,
        `the export result at ${reading.exchange.url} to hold every contact of the list`,
      );
      return undefined;
    }
    const got =
      reading.kind === "nothing" ? `status ${reading.exchange.response.status}, which holds nothing` : reading.reason;
    if (address.stated) {
      fail(
        `the export result at ${address.url} (export.result) to hold every contact of the list`,
        got,
        reading.exchange,
      );
    }
    return this.notRun(
      `the export result cannot be read at ${"url" in address ? address.url : "the 303's Location"} (${got}): state export.result to say where the messaging server shows it`,
    );
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

Then("the messaging server holds none of the list's contacts for that other user", async function (this: SxdWorld) {
  const state = stateOf(this);
  if (!state.otherUser) throw new Error("no other user's import address was used in this scenario");
  await expectNoneHeld(this, resultUri(state, state.otherUser), listOf(state).contacts);
});

Given(
  "a messaging server whose contacts server cannot be reached",
  // The commands have time limits of their own (export.outage.timeoutMs).
  { timeout: -1 },
  async function (this: SxdWorld) {
    const state = stateOf(this);
    // The bundled reference runs a second messaging server whose contacts server is down.
    const bundled = this.parameters.outageMessagingUrl?.replace(/\/+$/, "");
    const commands = this.target.export.outage;
    if (!bundled && !commands) {
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
    if (bundled || !commands) return undefined;
    return stopContactsServer(this, state, commands);
  },
);

After({ tags: "@alone", timeout: -1 }, async function (this: SxdWorld) {
  const problem = await states.get(this)?.restart?.();
  // The description's start command is not the target: what it fails to do is not run, not failed.
  return problem === undefined ? undefined : this.notRun(problem);
});

/**
 * Runs the stop command and waits until the contacts server stops answering. From the
 * moment it runs, the start command is due after the scenario, whatever its outcome.
 */
async function stopContactsServer(world: SxdWorld, state: ExportState, commands: OutageCommands) {
  const timeoutMs = commands.timeoutMs ?? DEFAULT_OUTAGE_TIMEOUT_MS;
  state.restart = async () => {
    const started = await runCommand(commands.start, timeoutMs);
    world.attach(describeRun(started), "text/plain");
    const problem = await untilAnswer(state.contactsUrl, timeoutMs, (answers) => answers);
    return problem === undefined
      ? undefined
      : `the contacts server ${state.contactsUrl} does not answer again within ${timeoutMs} ms after export.outage.start (${problem}; ${summary(started)}): the scenarios after this one may fail for that reason`;
  };
  const stopped = await runCommand(commands.stop, timeoutMs);
  world.attach(describeRun(stopped), "text/plain");
  if (!succeeded(stopped)) return world.notRun(`export.outage.stop did not succeed: ${summary(stopped)}`);
  const stillUp = await untilAnswer(state.contactsUrl, timeoutMs, (answers) => !answers);
  return stillUp
    ? world.notRun(`the contacts server ${state.contactsUrl} still answers after export.outage.stop`)
    : undefined;
}

/**
 * Probes `url` until `wanted(answers)` holds or `timeoutMs` passes; returns undefined when
 * it held, else what the last probe found.
 */
async function untilAnswer(
  url: string,
  timeoutMs: number,
  wanted: (answers: boolean) => boolean,
): Promise<string | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const problem = await probe(url, Math.min(2000, timeoutMs));
    if (wanted(problem === undefined)) return undefined;
    if (Date.now() >= deadline) return problem ?? "it answers";
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function summary(run: CommandRun): string {
  const last = run.output.trimEnd().split("\n").at(-1);
  return `${run.timedOut ? "no exit within its time limit" : `exit code ${run.exitCode}`}${last ? ` (${last})` : ""}`;
}

When(
  "the client sends POST with no body to the export link's path on that messaging server",
  async function (this: SxdWorld) {
    const state = stateOf(this);
    await this.http.send("POST", onOutageServer(state, linkOf(state).href));
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
  if (before.kind === "unreadable" || after.kind === "unreadable") {
    const reason = before.kind === "unreadable" ? before.reason : after.kind === "unreadable" ? after.reason : "";
    this.attach(`What the messaging server keeps is not checked: its export result cannot be read (${reason}).`);
    return;
  }
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
  return this.target.export.upload
    ? undefined
    : this.notApplicable("the target description names no fallback upload (export.upload)");
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

/** The fallback upload (EXP-9) of the list as the contacts server served it. */
async function uploadList(world: SxdWorld, state: ExportState, messagingUrl: string, user: string): Promise<void> {
  const upload = world.target.export.upload;
  const list = state.listExchange;
  if (!upload || !list) throw new Error("uploading needs a target upload and a fetched list");
  await world.http.send(upload.method, `${messagingUrl}${upload.path.replaceAll("{user}", user)}`, {
    headers: { "content-type": upload.contentType ?? DEFAULT_UPLOAD_TYPE },
    body: list.response.body,
  });
}

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

function contactListOf(exchange: Answered): ContactList {
  const list = readContactList(exchange.response.body);
  if (!list.ok) fail("a contacts document", list.error, exchange);
  return list.value;
}

function listOf(state: ExportState): ContactList {
  if (!state.list) throw new Error("no contact list was read in this scenario");
  return state.list;
}

function linkOf(state: ExportState): ListLink & { href: string } {
  if (!state.link) throw new Error("no export link was read in this scenario");
  return state.link;
}

function exportLinkOf(world: SxdWorld, state: ExportState, exchange: Answered): ListLink & { href: string } {
  const rel = world.target.export.rel;
  const links = contactListOf(exchange).links;
  const link = findExportLink(links, state.messagingUrl, rel);
  const wanted = rel
    ? `an atom:link rel="${rel}" (the export relation of the target description)`
    : `an atom:link whose rel is a URI and whose href is an absolute URI on ${state.messagingUrl}`;
  if (!link) fail(wanted, `links ${JSON.stringify(links)}`, exchange);
  if (link.href === undefined) fail(`${wanted} with an href`, "no href", exchange);
  return { ...link, href: link.href };
}

function freshUserName(): string {
  return `sxd-${Math.random().toString(36).slice(2, 10)}`;
}

/** The export went ahead: 303 as the spec says, or at least a success. */
function exported(status: number): boolean {
  return status === 303 || (status >= 200 && status <= 299);
}

function onOutageServer(state: ExportState, url: string): string {
  return `${state.outage?.messagingUrl ?? state.messagingUrl}${url.slice(state.messagingUrl.length)}`;
}

/** Where the export result is read; `stated` when the target description names it. */
type ResultAddress = { url: string; stated: boolean } | { problem: string; stated: false };

/**
 * The description's export.result on `messagingUrl`, else the spec's address: where no
 * 303 was answered in the scenario, there is no Location to follow.
 */
function resultAddress(
  world: SxdWorld,
  state: ExportState,
  messagingUrl = state.messagingUrl,
  user = state.user,
): ResultAddress {
  const stated = world.target.export.result;
  if (stated === false) return { problem: "the target description states it cannot be read", stated: false };
  if (stated !== undefined && stated !== "location") {
    return { url: `${messagingUrl}${stated.replaceAll("{user}", encodeURIComponent(user))}`, stated: true };
  }
  return { url: resultUri(state, user, messagingUrl), stated: false };
}

/** The Location of the export reply, resolved against the request (RFC 9110 §10.2.2). */
function locationOf(state: ExportState): ResultAddress {
  const reply = state.exportReply;
  const location = reply && headerOf(reply, "location");
  if (!reply || location === undefined) return { problem: "the export reply has no Location", stated: false };
  try {
    return { url: new URL(location, reply.url).href, stated: false };
  } catch {
    return { problem: `Location ${location} is not a URI reference`, stated: false };
  }
}

/** GET on the export result: a 204 or 4xx holds nothing, a 2xx is read as a document of contacts. */
async function readResult(world: SxdWorld, address: ResultAddress): Promise<ResultReading> {
  if ("problem" in address) return { kind: "unreadable", reason: address.problem };
  const exchange = await world.http.send("GET", address.url, { headers: { accept: "application/xml, */*" } });
  const status = exchange.response.status;
  if (status === 204 || (status >= 400 && status <= 499)) return { kind: "nothing", exchange };
  if (status < 200 || status > 299) return { kind: "unreadable", reason: `status ${status}`, exchange };
  const held = contactsAnywhere(exchange.response.body);
  if (held.ok) return { kind: "held", contacts: held.value, exchange };
  const type = headerOf(exchange, "content-type") ?? "no Content-Type";
  return { kind: "unreadable", reason: `status ${status} with ${type} and ${held.error}`, exchange };
}

function expectMissingNone(reading: ResultReading & { kind: "held" }, contacts: string[], expected: string): void {
  const missing = [...countOccurrences(contacts, reading.contacts)].filter(([, n]) => n === 0).map(([c]) => c);
  expectThat(
    missing.length === 0,
    expected,
    `${missing.length} of ${contacts.length} missing, e.g. ${missing[0]}`,
    reading.exchange,
  );
}

async function heldContacts(world: SxdWorld, url: string): Promise<ResultReading & { kind: "held" }> {
  const reading = await readResult(world, { url, stated: false });
  if (reading.kind === "held") return reading;
  const got = reading.kind === "nothing" ? `status ${reading.exchange.response.status}` : reading.reason;
  fail(`GET ${url} (the export result) to answer 200 with the contacts it holds`, got, reading.exchange);
}

/** Nothing of `contacts` at `url`: a 204 or 4xx holds nothing, a 200 is read as a document of contacts. */
async function expectNoneHeld(world: SxdWorld, url: string, contacts: string[]): Promise<void> {
  const reading = await readResult(world, { url, stated: false });
  if (reading.kind === "nothing") return;
  const expected = `GET ${url} to show no imported contacts (a 4xx, or a 200 XML document without them)`;
  if (reading.kind === "unreadable") fail(expected, `${reading.reason}, which cannot be judged`, reading.exchange);
  const found = contacts.filter((contact) => reading.contacts.includes(contact));
  expectThat(
    found.length === 0,
    `nothing imported at ${url}`,
    `${found.length} contacts of the list, e.g. ${found[0]}`,
    reading.exchange,
  );
}
