/**
 * The export result: where the messaging server shows what an export left (the description's
 * export.result, the 303's Location, the spec's address), reading it, and what it must hold.
 */

import { type Answered, headerOf } from "../../harness/evidence/exchange.ts";
import { expectThat, fail } from "../support/expect.ts";
import type { SxdWorld } from "../support/world.ts";
import { type ExportState, type ResultReading, resultUri, STATED_UNREADABLE } from "./checks.ts";
import { contactsAnywhere, countOccurrences, describeMissing } from "./contact-list.ts";

/** Where the export result is read; `stated` when the target description names it. */
export type ResultAddress = { url: string; stated: boolean } | { problem: string; stated: false };

/**
 * The description's export.result on `messagingUrl`, else the spec's address: where no
 * 303 was answered in the scenario, there is no Location to follow.
 */
export function resultAddress(
  world: Pick<SxdWorld, "target">,
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
export async function readResult(world: Pick<SxdWorld, "http">, address: ResultAddress): Promise<ResultReading> {
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
  const missing = missingOf(reading, contacts);
  if (missing !== undefined) fail(expected, missing, reading.exchange);
}

/** How many of `contacts` the reading lacks, with the first; undefined where it holds them all. */
function missingOf(reading: ResultReading & { kind: "held" }, contacts: string[]): string | undefined {
  const missing = [...countOccurrences(contacts, reading.contacts)].filter(([, n]) => n === 0).map(([c]) => c);
  if (missing.length === 0) return undefined;
  return `${missing.length} of ${contacts.length} missing, e.g. ${describeMissing(missing[0], reading.contacts)}`;
}

/** What the messaging server showed of the list after an export (EXP-5's check, LIM-5's). */
export type AllHeld =
  | { kind: "all held"; exchange: Answered }
  /** A contact missing, or nothing readable where the description states the result is. */
  | { kind: "missing"; expected: string; got: string; exchange?: Answered }
  /** Nothing to judge: the description says the result cannot be read, or the Location shows no contacts. */
  | { kind: "unreadable"; reason: string; exchange?: Answered };

/**
 * Reads what the messaging server holds after the export of `state.exportReply`: at the
 * description's export.result, else at the 303's Location, and checks every one of `contacts` is there.
 */
export async function checkAllHeld(
  world: Pick<SxdWorld, "http" | "target">,
  state: ExportState,
  contacts: string[],
): Promise<AllHeld> {
  const stated = world.target.export.result;
  if (stated === false) return { kind: "unreadable", reason: STATED_UNREADABLE };
  const address = stated !== undefined && stated !== "location" ? resultAddress(world, state) : locationOf(state);
  const reading = await readResult(world, address);
  if (reading.kind === "held") {
    const missing = missingOf(reading, contacts);
    if (missing === undefined) return { kind: "all held", exchange: reading.exchange };
    const expected = `the export result at ${reading.exchange.url} to hold every contact of the list`;
    return { kind: "missing", expected, got: missing, exchange: reading.exchange };
  }
  const got =
    reading.kind === "nothing" ? `status ${reading.exchange.response.status}, which holds nothing` : reading.reason;
  if (address.stated) {
    const expected = `the export result at ${address.url} (export.result) to hold every contact of the list`;
    return { kind: "missing", expected, got, exchange: reading.exchange };
  }
  return {
    kind: "unreadable",
    reason: `the export result cannot be read at ${"url" in address ? address.url : "the 303's Location"} (${got}): state export.result to say where the messaging server shows it`,
    exchange: reading.exchange,
  };
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
