/**
 * What the export steps keep and do beyond one request: the scenario's state (the list read,
 * the link, the export result), where and how the result is read, the outage commands.
 */

import type { OutageCommands } from "../../harness/description/target.ts";
import { type Answered, headerOf } from "../../harness/evidence/exchange.ts";
import { DescriptionUnfit } from "../../harness/judging/step-errors.ts";
import type { TlsSettings } from "../../harness/wire/dispatcher.ts";
import { probe } from "../../harness/wire/probe.ts";
import { sleep } from "../../harness/wire/rate-limits.ts";
import { isAbsoluteUri } from "../../lib/uri.ts";
import { type CommandRun, describeRun, runCommand, succeeded } from "../support/commands.ts";
import { expectThat, fail } from "../support/expect.ts";
import type { SxdWorld } from "../support/world.ts";
import {
  type ContactList,
  contactsAnywhere,
  countOccurrences,
  describeMissing,
  findExportLink,
  type ListLink,
  readContactList,
} from "./contact-list.ts";

export interface ExportState {
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
export type ResultReading =
  | { kind: "held"; contacts: string[]; exchange: Answered }
  /** A 204 or 4xx: the server holds nothing for the user there. */
  | { kind: "nothing"; exchange: Answered }
  | { kind: "unreadable"; reason: string; exchange?: Answered };

export const states = new WeakMap<SxdWorld, ExportState>();

/** Each outage command's time limit, and how long the contacts server may take to answer again. */
export const DEFAULT_OUTAGE_TIMEOUT_MS = 30000;

export const STATED_UNREADABLE =
  "the target description states that the export result cannot be read (export.result: false)";

/** The payload of the fallback upload is the contact list as the contacts server served it. */
export const DEFAULT_UPLOAD_TYPE = "application/xml;charset=UTF-8";

export function stateOf(world: SxdWorld): ExportState {
  const state = states.get(world);
  if (!state) throw new Error("export step used before 'the target has a contacts server and a messaging server'");
  return state;
}

/** The export result where the spec puts it: {messaging_url}/user/<user>, the Location EXP-4 requires. */
export function resultUri(state: ExportState, user = state.user, messagingUrl = state.messagingUrl): string {
  return `${messagingUrl}/user/${encodeURIComponent(user)}`;
}

/**
 * The scenario's first read of the user's list. Its path is the spec's, the user the
 * description's: a 404 says the contacts server does not know that user, and the scenario is
 * not run.
 */
export async function fetchList(world: SxdWorld, state: ExportState): Promise<Answered> {
  const exchange = await world.http.send("GET", state.listUrl, { headers: { accept: "application/xml" } });
  if (exchange.response.status === 404) {
    throw new DescriptionUnfit(
      "export.user",
      `GET ${state.listUrl}`,
      "state a user whose contact list the contacts server serves",
    );
  }
  state.listExchange = exchange;
  return exchange;
}

/** Reads the list a scenario builds on; anything but 200 ends the scenario here. */
export async function readListForScenario(world: SxdWorld): Promise<Answered> {
  const state = stateOf(world);
  const exchange = await fetchList(world, state);
  expectThat(
    exchange.response.status === 200,
    "the contact list (200)",
    `status ${exchange.response.status}`,
    exchange,
  );
  state.list = contactListOf(exchange);
  return exchange;
}

/**
 * Runs the stop command and waits until the contacts server stops answering. From the
 * moment it runs, the start command is due after the scenario, whatever its outcome.
 */
export async function stopContactsServer(world: SxdWorld, state: ExportState, commands: OutageCommands) {
  const timeoutMs = commands.timeoutMs ?? DEFAULT_OUTAGE_TIMEOUT_MS;
  state.restart = async () => {
    const started = await runCommand(commands.start, timeoutMs);
    world.observe(describeRun(started));
    const problem = await untilAnswer(state.contactsUrl, timeoutMs, world.parameters.tls, (answers) => answers);
    return problem === undefined
      ? undefined
      : `the contacts server ${state.contactsUrl} does not answer again within ${timeoutMs} ms after export.outage.start (${problem}; ${summary(started)}): the scenarios after this one may fail for that reason`;
  };
  const stopped = await runCommand(commands.stop, timeoutMs);
  world.observe(describeRun(stopped));
  if (!succeeded(stopped)) return world.notRun(`export.outage.stop did not succeed: ${summary(stopped)}`);
  const stillUp = await untilAnswer(state.contactsUrl, timeoutMs, world.parameters.tls, (answers) => !answers);
  return stillUp
    ? world.notRun(`the contacts server ${state.contactsUrl} still answers after export.outage.stop`)
    : undefined;
}

/**
 * Probes `url` until `wanted(answers)` holds or `timeoutMs` passes; returns undefined when
 * it held, else what the last probe found. With the run's TLS settings (--ca, --insecure),
 * so that a certificate sxd was told to trust does not read as a server that is down.
 */
export async function untilAnswer(
  url: string,
  timeoutMs: number,
  tls: TlsSettings | undefined,
  wanted: (answers: boolean) => boolean,
): Promise<string | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const problem = await probe(url, Math.min(2000, timeoutMs), tls);
    if (wanted(problem === undefined)) return undefined;
    if (Date.now() >= deadline) return problem ?? "it answers";
    await sleep(200);
  }
}

export function summary(run: CommandRun): string {
  const last = run.output.trimEnd().split("\n").at(-1);
  return `${run.timedOut ? "no exit within its time limit" : `exit code ${run.exitCode}`}${last ? ` (${last})` : ""}`;
}

/** The fallback upload (EXP-9) of the list as the contacts server served it. */
export async function uploadList(
  world: SxdWorld,
  state: ExportState,
  messagingUrl: string,
  user: string,
): Promise<void> {
  const upload = world.target.export.upload;
  const list = state.listExchange;
  if (!upload || !list) throw new Error("uploading needs a target upload and a fetched list");
  await world.http.send(upload.method, `${messagingUrl}${upload.path.replaceAll("{user}", user)}`, {
    headers: { "content-type": upload.contentType ?? DEFAULT_UPLOAD_TYPE },
    body: list.response.body,
  });
}

export function contactListOf(exchange: Answered): ContactList {
  const list = readContactList(exchange.response.body);
  if (!list.ok) fail("a contacts document", list.error, exchange);
  return list.value;
}

export function listOf(state: ExportState): ContactList {
  if (!state.list) throw new Error("no contact list was read in this scenario");
  return state.list;
}

export function linkOf(state: ExportState): ListLink & { href: string } {
  if (!state.link) throw new Error("no export link was read in this scenario");
  return state.link;
}

export function exportLinkOf(world: SxdWorld, state: ExportState, exchange: Answered): ListLink & { href: string } {
  const rel = world.target.export.rel;
  const links = contactListOf(exchange).links;
  const link = findExportLink(links, state.messagingUrl, rel);
  const wanted = rel
    ? `an atom:link rel="${rel}" (the export relation of the target description)`
    : `an atom:link whose rel is a URI and whose href is an absolute URI on ${state.messagingUrl}`;
  if (!link) fail(wanted, `links ${JSON.stringify(links)}`, exchange);
  if (link.href === undefined) fail(`${wanted} with an href`, "no href", exchange);
  // A relative href is EXP-3's failure; the client has nowhere to send the export (see EXP-3).
  if (!isAbsoluteUri(link.href)) fail(`${wanted} with an absolute href (EXP-3)`, `href ${link.href}`, exchange);
  return { ...link, href: link.href };
}

export function freshUserName(): string {
  return `sxd-${Math.random().toString(36).slice(2, 10)}`;
}

/** The export went ahead: 303 as the spec says, or at least a success. */
export function exported(status: number): boolean {
  return status === 303 || (status >= 200 && status <= 299);
}

export function onOutageServer(state: ExportState, url: string): string {
  return `${state.outage?.messagingUrl ?? state.messagingUrl}${url.slice(state.messagingUrl.length)}`;
}

/** Where the export result is read; `stated` when the target description names it. */
export type ResultAddress = { url: string; stated: boolean } | { problem: string; stated: false };

/**
 * The description's export.result on `messagingUrl`, else the spec's address: where no
 * 303 was answered in the scenario, there is no Location to follow.
 */
export function resultAddress(
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
export function locationOf(state: ExportState): ResultAddress {
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
export async function readResult(world: SxdWorld, address: ResultAddress): Promise<ResultReading> {
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

export function expectMissingNone(
  reading: ResultReading & { kind: "held" },
  contacts: string[],
  expected: string,
): void {
  const missing = [...countOccurrences(contacts, reading.contacts)].filter(([, n]) => n === 0).map(([c]) => c);
  if (missing.length === 0) return;
  fail(
    expected,
    `${missing.length} of ${contacts.length} missing, e.g. ${describeMissing(missing[0], reading.contacts)}`,
    reading.exchange,
  );
}

export async function heldContacts(world: SxdWorld, url: string): Promise<ResultReading & { kind: "held" }> {
  const reading = await readResult(world, { url, stated: false });
  if (reading.kind === "held") return reading;
  const got = reading.kind === "nothing" ? `status ${reading.exchange.response.status}` : reading.reason;
  fail(`GET ${url} (the export result) to answer 200 with the contacts it holds`, got, reading.exchange);
}

/** Nothing of `contacts` at `url`: a 204 or 4xx holds nothing, a 200 is read as a document of contacts. */
export async function expectNoneHeld(world: SxdWorld, url: string, contacts: string[]): Promise<void> {
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
