/**
 * What the export steps keep and do beyond one request: the scenario's state (the list read,
 * the link, the export result), the list and its link read, the outage commands. Where and how
 * the result is read is result.ts.
 */

import type { OutageCommands } from "../../harness/description/target.ts";
import type { Answered } from "../../harness/evidence/exchange.ts";
import { DescriptionUnfit } from "../../harness/judging/step-errors.ts";
import type { TlsSettings } from "../../harness/wire/dispatcher.ts";
import { probe } from "../../harness/wire/probe.ts";
import { sleep } from "../../harness/wire/rate-limits.ts";
import { isAbsoluteUri } from "../../lib/uri.ts";
import { type CommandRun, describeRun, runCommand, succeeded } from "../support/commands.ts";
import { expectThat, fail } from "../support/expect.ts";
import type { SxdWorld } from "../support/world.ts";
import { type ContactList, findExportLink, type ListLink, readContactList } from "./contact-list.ts";

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

/**
 * What every scenario that exports shares: the export user's copy on the messaging server and
 * the user's export link. Its scenarios run one at a time (steps/support/alone.ts), so none reads
 * a copy another's POST is rebuilding, or finds its link spent by another.
 */
export const THE_EXPORT_USER = "the export user's copy and link";

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

export function exportLinkOf(
  world: Pick<SxdWorld, "target">,
  state: ExportState,
  exchange: Answered,
): ListLink & { href: string } {
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
