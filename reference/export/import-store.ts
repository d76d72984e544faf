/**
 * The messaging server's side of an export, pure of HTTP serving: what it holds per user,
 * and the backend request that fetches a user's contacts from the contacts server.
 *
 * An import replaces the user's whole set in one assignment, and only after the backend
 * reply has been read and parsed in full. So a repeated or concurrent import leaves one
 * copy of each contact, and a failed one leaves the previous set as it was.
 *
 * The backend request may pass a rate-limiting gateway as the client's did: a "not now"
 * (429, or 503 with Retry-After) is asked again after the wait it names, or a back-off,
 * within the backend timeout and BACKEND_TRIES; past that, the export gets 503 with a
 * Retry-After of its own, a reply the client can act on, not a 502 that blames the server.
 */
import { get as httpGet } from "node:http";
import { get as httpsGet } from "node:https";
import { setTimeout as sleep } from "node:timers/promises";
import { timeLimit } from "../../lib/held-up.ts";
import { retryAfterMs } from "../../lib/http-date.ts";
import { contactsOfList } from "./contact-list.ts";

export interface ContactLimits {
  maxUsers: number;
  /** UTF-8 bytes of the contacts held, over all users. */
  maxBytes: number;
}

/** In memory only, like the snapshot store, and bounded the same way (see refusal). */
export class ContactStore {
  private readonly byUser = new Map<string, readonly string[]>();
  private bytes = 0;

  constructor(readonly limits: ContactLimits = { maxUsers: 100_000, maxBytes: 256 * 1024 * 1024 }) {}

  get(user: string): readonly string[] | undefined {
    return this.byUser.get(user);
  }

  /** Why holding `contacts` for `user` (in place of what it holds now) would pass a limit; undefined if it fits. */
  refusal(user: string, contacts: readonly string[]): string | undefined {
    const held = this.byUser.get(user);
    if (!held && this.byUser.size >= this.limits.maxUsers) {
      return `this server holds contacts for its limit of ${this.limits.maxUsers} users`;
    }
    if (this.bytes - sizeOf(held ?? []) + sizeOf(contacts) > this.limits.maxBytes) {
      return `this server's storage limit of ${this.limits.maxBytes} bytes would be passed`;
    }
    return undefined;
  }

  replace(user: string, contacts: readonly string[]): void {
    this.bytes += sizeOf(contacts) - sizeOf(this.byUser.get(user) ?? []);
    this.byUser.set(user, [...contacts]);
  }

  /** Only the `exp-duplicate-on-repeat` fault adds instead of replacing. */
  append(user: string, contacts: readonly string[]): void {
    this.replace(user, [...(this.byUser.get(user) ?? []), ...contacts]);
  }
}

/**
 * How long an import that is not serialised (the fault `exp-import-not-serialised`) leaves the
 * user's copy empty before it refills it: wide enough that POSTs sent at once all come within it.
 */
export const UNSERIALISED_REFILL_MS = 100;

/**
 * Imports of one user as a server takes them that does not serialise them (the fault
 * `exp-import-not-serialised` only): the first empties the user's copy and refills it a while
 * later, with its own contacts and those of every import that came meanwhile, which are answered
 * at once. So POSTs sent at once leave each contact several times, and an export answered
 * meanwhile finds the copy empty. The reference replaces a copy in one assignment.
 */
export class UnserialisedImports {
  private readonly refills = new Map<string, string[][]>();

  constructor(
    private readonly store: ContactStore,
    private readonly refillMs = UNSERIALISED_REFILL_MS,
  ) {}

  async import(user: string, contacts: readonly string[]): Promise<void> {
    const underWay = this.refills.get(user);
    if (underWay) {
      underWay.push([...contacts]);
      return;
    }
    const batches = [[...contacts]];
    this.refills.set(user, batches);
    this.store.replace(user, []);
    await sleep(this.refillMs);
    this.refills.delete(user);
    this.store.replace(user, batches.flat());
  }
}

/**
 * What reading one imported contact back from storage takes, for the fault
 * `exp-import-compares-each-held` only. A wait, like the snapshot faults' storage reads
 * (snapshots/history-walk.ts): the growth is large per contact and costs no processor time, so
 * a busy machine's scheduler does not hide it.
 */
export const CONTACT_READ_MS = 0.5;

/**
 * An import as a server takes it that finds duplicates by comparing each contact fetched with
 * every one imported before it, each read back from storage: the reads grow with the square of
 * the list's length. The reference never does (a replace is one assignment); only the fault.
 * Returns how many contacts repeat an earlier one.
 */
export async function compareEachWithEarlier(contacts: readonly string[]): Promise<number> {
  let reads = 0;
  let repeated = 0;
  for (const [i, contact] of contacts.entries()) {
    for (let earlier = 0; earlier < i; earlier++) {
      reads++;
      if (contacts[earlier] === contact) {
        repeated++;
        break;
      }
    }
  }
  // Not holding the process open: a wait of minutes (a long list) outlives the servers' close.
  await sleep(reads * CONTACT_READ_MS, undefined, { ref: false });
  return repeated;
}

function sizeOf(contacts: readonly string[]): number {
  return contacts.reduce((sum, contact) => sum + Buffer.byteLength(contact), 0);
}

export type FetchOutcome =
  | { ok: true; contacts: string[] }
  /** `backendStatus`: where the contacts server answered, but not with the list. */
  | { ok: false; status: 502 | 503 | 504; message: string; backendStatus?: number; headers?: Record<string, string> };

/** Requests to the contacts server for one export, at most. */
export const BACKEND_TRIES = 3;
/** The waits after a "not now" that names none. */
const BACKOFF_MS = [250, 500];

/** What the backend request reads of a reply: a fetch Response has it, and so has nodeGet's. */
export interface BackendReply {
  status: number;
  /** `entries`, where the reply has it, for a record of the whole exchange (sxd's peer keeps one). */
  headers: { get(name: string): string | null; entries?(): Iterable<[string, string]> };
  text(): Promise<string>;
}

export type Fetcher = (
  url: string,
  init: { signal: AbortSignal; headers: Record<string, string>; method?: string },
) => Promise<BackendReply>;

/**
 * A GET with node's own client. The global fetch would load node's copy of undici on the
 * first export, about 40 ms of a conformance run against the bundled reference, for one
 * plain request.
 */
export const nodeGet: Fetcher = (url, init) =>
  new Promise((resolve, reject) => {
    const get = url.startsWith("https:") ? httpsGet : httpGet;
    const request = get(url, { signal: init.signal, headers: init.headers, method: init.method }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const joined = (value: string | string[] | undefined) => [value ?? []].flat().join(", ");
        resolve({
          status: response.statusCode ?? 0,
          headers: {
            get: (name) => joined(response.headers[name.toLowerCase()]) || null,
            entries: () => Object.entries(response.headers).map(([name, value]) => [name, joined(value)]),
          },
          text: async () => text,
        });
      });
    });
    request.on("error", reject);
  });

/** How the messaging server's backend request names itself, so that a recording can tell it from a client's. */
export const BACKEND_USER_AGENT = "sxd-reference-messaging (backend request)";

/** How far the backend's time limit stretches, at most, over the time this process was held up. */
const BACKEND_HELD_UP_STRETCH = 2;

/**
 * GETs `<contactsUrl>/user/<user>/contacts`, or asks at `path` as the backend request is
 * described (backend.ts). The base URL is the messaging server's own configuration; nothing
 * from the client's request goes into it but the user name and the token. The whole
 * exchange, waits included, ends within `timeoutMs` of time this process could run (at most
 * twice that in all).
 */
export async function fetchContacts(
  contactsUrl: string,
  user: string,
  options: { timeoutMs: number; fetcher?: Fetcher; path?: string; method?: string; headers?: Record<string, string> },
): Promise<FetchOutcome> {
  const url = `${contactsUrl}${options.path ?? `/user/${encodeURIComponent(user)}/contacts`}`;
  const fetcher = options.fetcher ?? nodeGet;
  const deadline = Date.now() + options.timeoutMs;
  // Time this process was held up (a loaded machine, its loop backed up) is not the contacts
  // server's: it is left out of the limit, up to twice the limit in all (lib/held-up.ts).
  const signal = timeLimit(
    options.timeoutMs,
    BACKEND_HELD_UP_STRETCH,
    () => new DOMException(`no answer within ${options.timeoutMs} ms`, "TimeoutError"),
  );
  for (let tries = 1; ; tries++) {
    let reply: { status: number; type: string | null; retryAfter: string | null; text: string };
    try {
      const response = await fetcher(url, {
        signal,
        headers: { accept: "application/xml", "user-agent": BACKEND_USER_AGENT, ...options.headers },
        method: options.method,
      });
      reply = {
        status: response.status,
        type: response.headers.get("content-type"),
        retryAfter: response.headers.get("retry-after"),
        text: await response.text(),
      };
    } catch (error) {
      const name = (error as { name?: string }).name;
      if (name === "TimeoutError" || name === "AbortError" || signal.aborted) {
        return { ok: false, status: 504, message: `the contacts server did not answer within ${options.timeoutMs} ms` };
      }
      return { ok: false, status: 502, message: "the contacts server could not be reached" };
    }
    const notNow = reply.status === 429 || (reply.status === 503 && reply.retryAfter !== null);
    if (notNow) {
      const waitMs = retryAfterMs(reply.retryAfter ?? undefined) ?? BACKOFF_MS[Math.min(tries, BACKOFF_MS.length) - 1];
      if (tries >= BACKEND_TRIES || Date.now() + waitMs >= deadline) return notNowAfter(tries, reply.status, waitMs);
      await sleep(waitMs);
      continue;
    }
    return contactsOf(reply.status, reply.type, reply.text);
  }
}

/** The export's answer when the contacts server kept saying "not now": when to try again. */
function notNowAfter(tries: number, status: number, waitMs: number): FetchOutcome {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return {
    ok: false,
    status: 503,
    message: `the contacts server answered ${status} (not now) to ${tries} request(s); try again in ${seconds} s`,
    headers: { "retry-after": String(seconds) },
  };
}

function contactsOf(status: number, type: string | null, text: string): FetchOutcome {
  if (status !== 200)
    return { ok: false, status: 502, message: `the contacts server answered ${status}`, backendStatus: status };
  // The body decides, not the Content-Type: a list under a sloppy media type is still the list.
  const contacts = contactsOfList(text);
  if (!contacts.ok) {
    const served = type ? ` (${type})` : "";
    return {
      ok: false,
      status: 502,
      message: `the contacts server's reply${served} is not a contact list: ${contacts.error}`,
    };
  }
  return { ok: true, contacts: contacts.value };
}
