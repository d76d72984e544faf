/**
 * Steps of the cross-server export (EXP rows): the contact list on the contacts server,
 * its export link, the POST that makes the messaging server fetch the contacts itself,
 * and what the messaging server holds afterwards. Addresses, the user, the relation and
 * the upload come from the target description; nothing here knows the reference's choices.
 */
import { Given, Then, When } from "@cucumber/cucumber";
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
import { type Answered, headerOf } from "./support/http.ts";
import type { SxdWorld } from "./support/world.ts";

interface ExportState {
  contactsUrl: string;
  messagingUrl: string;
  user: string;
  listUrl: string;
  listExchange?: Answered;
  list?: ContactList;
  link?: ListLink & { href: string };
  /** A fresh user: the one whose import address got another user's token, or the upload's. */
  otherUser?: string;
}

const states = new WeakMap<SxdWorld, ExportState>();

/** The payload of the fallback upload is the contact list as the contacts server served it. */
const DEFAULT_UPLOAD_TYPE = "application/xml;charset=UTF-8";

function stateOf(world: SxdWorld): ExportState {
  const state = states.get(world);
  if (!state) throw new Error("export step used before 'the target has a contacts server and a messaging server'");
  return state;
}

function resultUri(state: ExportState, user = state.user): string {
  return `${state.messagingUrl}/user/${encodeURIComponent(user)}`;
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
  await this.http.send("POST", linkOf(state).href);
});

When(
  /^the client sends POST with no body to the export link with (no token|an altered token|a forged token|its token on another user's import address)$/,
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
      case "a forged token":
        url = withToken(forgedLike(token));
        break;
      default: {
        const own = `/user/${encodeURIComponent(state.user)}/`;
        if (!href.includes(own)) {
          return this.notRun(
            `the export link ${href} does not carry the user's path ${own} (EXP-3 checks its shape), so there is no import address to put another user in`,
          );
        }
        state.otherUser = this.target.export.otherUser ?? freshUserName();
        url = href.replace(own, `/user/${encodeURIComponent(state.otherUser)}/`);
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
  expectThat(
    status !== 303 && (status < 200 || status > 299),
    "no export: neither 303 nor 2xx",
    `status ${status}`,
    reply,
  );
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
  /^the messaging server's export result (?:for that user )?lists every contact of the list$/,
  async function (this: SxdWorld) {
    const state = stateOf(this);
    const { exchange, held } = await heldContacts(this, resultUri(state, state.otherUser));
    const missing = [...countOccurrences(listOf(state).contacts, held)].filter(([, n]) => n === 0).map(([c]) => c);
    expectThat(
      missing.length === 0,
      `GET ${exchange.url} to show every contact the contacts server served`,
      `${missing.length} of ${listOf(state).contacts.length} missing, e.g. ${missing[0]}`,
      exchange,
    );
  },
);

Then(
  "the messaging server's export result lists each contact of the list exactly once",
  async function (this: SxdWorld) {
    const state = stateOf(this);
    const { exchange, held } = await heldContacts(this, resultUri(state));
    const wrong = [...countOccurrences(listOf(state).contacts, held)].filter(([, n]) => n !== 1);
    const duplicates = held.filter((contact, index) => held.indexOf(contact) !== index);
    expectThat(
      wrong.length === 0 && duplicates.length === 0,
      `GET ${exchange.url} to show each contact of the list once`,
      wrong.length > 0 ? `${wrong[0][0]} shown ${wrong[0][1]} times` : `${duplicates[0]} shown more than once`,
      exchange,
    );
  },
);

Then("the messaging server holds none of the list's contacts for that other user", async function (this: SxdWorld) {
  const state = stateOf(this);
  if (!state.otherUser) throw new Error("no other user's import address was used in this scenario");
  await expectNoneHeld(this, resultUri(state, state.otherUser), listOf(state).contacts);
});

Given("a messaging server whose contacts server cannot be reached", function (this: SxdWorld) {
  // Only the bundled reference can offer one; against an external target EXP-8 is not run.
  return this.parameters.outageMessagingUrl
    ? undefined
    : this.notRun("sxd can take down the contacts server of its bundled reference only, not of an external target");
});

When(
  "the client sends POST with no body to the export link's path on that messaging server",
  async function (this: SxdWorld) {
    const state = stateOf(this);
    await this.http.send("POST", onOutageServer(this, state, linkOf(state).href));
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

Then("that messaging server holds none of the list's contacts", async function (this: SxdWorld) {
  const state = stateOf(this);
  await expectNoneHeld(this, onOutageServer(this, state, resultUri(state)), listOf(state).contacts);
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
    const upload = this.target.export.upload;
    const list = state.listExchange;
    if (!upload || !list) throw new Error("uploading needs a target upload and a fetched list");
    // A fresh user, so that no export by another scenario can put these contacts where the check looks.
    state.otherUser = freshUserName();
    const path = upload.path.replaceAll("{user}", state.otherUser);
    await this.http.send(upload.method, `${state.messagingUrl}${path}`, {
      headers: { "content-type": upload.contentType ?? DEFAULT_UPLOAD_TYPE },
      body: list.response.body,
    });
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

/**
 * Another token of the same length and alphabet, so only its value can give it away. Never
 * the token itself: a token of one repeated character gets a second character to vary with.
 */
function forgedLike(token: string): string {
  const alphabet = [...new Set(token)];
  if (alphabet.length < 2) alphabet.push(alphabet[0] === "A" ? "B" : "A");
  const forged = Array.from({ length: Math.max(token.length, 1) }, (_, i) => alphabet[(i * 7 + 3) % alphabet.length]);
  if (forged.join("") !== token) return forged.join("");
  // Each character shifted to the next of the alphabet differs from it everywhere.
  return Array.from(token, (c) => alphabet[(alphabet.indexOf(c) + 1) % alphabet.length]).join("");
}

function onOutageServer(world: SxdWorld, state: ExportState, url: string): string {
  const outage = (world.parameters.outageMessagingUrl ?? "").replace(/\/+$/, "");
  return `${outage}${url.slice(state.messagingUrl.length)}`;
}

async function heldContacts(world: SxdWorld, url: string): Promise<{ exchange: Answered; held: string[] }> {
  const exchange = await world.http.send("GET", url, { headers: { accept: "application/xml, */*" } });
  const status = exchange.response.status;
  expectThat(status === 200, `GET ${url} (the export result) to answer 200`, `status ${status}`, exchange);
  const held = contactsAnywhere(exchange.response.body);
  if (!held.ok) fail("an XML document showing the imported contacts", held.error, exchange);
  return { exchange, held: held.value };
}

/** Nothing of `contacts` at `url`: a 204 or 4xx holds nothing, a 200 is read as a document of contacts. */
async function expectNoneHeld(world: SxdWorld, url: string, contacts: string[]): Promise<void> {
  const exchange = await world.http.send("GET", url, { headers: { accept: "application/xml, */*" } });
  const status = exchange.response.status;
  if (status === 204 || (status >= 400 && status <= 499)) return;
  const expected = `GET ${url} to show no imported contacts (a 4xx, or a 200 XML document without them)`;
  if (status !== 200) fail(expected, `status ${status}`, exchange);
  const held = contactsAnywhere(exchange.response.body);
  if (!held.ok) {
    const type = headerOf(exchange, "content-type") ?? "no Content-Type";
    fail(expected, `status 200 with ${type} and ${held.error}, which cannot be judged`, exchange);
  }
  const found = contacts.filter((contact) => held.value.includes(contact));
  expectThat(
    found.length === 0,
    `nothing imported at ${url}`,
    `${found.length} contacts of the list, e.g. ${found[0]}`,
    exchange,
  );
}
