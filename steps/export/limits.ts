/**
 * The export LIM case (ROWS.md, LIM-5): the time of the 303 for a contact list of N contacts,
 * and every contact at the messaging server afterwards. It runs where the description names
 * users whose lists are that long (export.longLists), each length a size. A repeat is the export
 * as the spec has a client do it: the list read for a fresh link, POST to the link, its 303
 * timed; then the result read where EXP-5 reads it. A contact missing there is a finding.
 *
 * The spec gives no way to delete what an export imported: the copies stay on the messaging
 * server, one per user named, and the report says so.
 */

import type { Answered } from "../../harness/evidence/exchange.ts";
import { ConformanceFailure } from "../../harness/judging/step-errors.ts";
import {
  answerOf,
  judged,
  type LimitCase,
  type LimitContext,
  LimitFinding,
  UnexpectedAnswer,
} from "../../harness/limits/case.ts";
import { pointOf } from "../../harness/limits/growth.ts";
import { LimitClient } from "../support/limit-client.ts";
import type { SxdWorld } from "../support/world.ts";
import { contactListOf, type ExportState, exported, exportLinkOf } from "./checks.ts";
import { checkAllHeld } from "./result.ts";

/**
 * Exports a repeat takes the median of, each on a fresh link: an export of ten contacts costs a
 * millisecond or two, and one held up by the machine's other work would weigh on a mean.
 */
const EXPORTS_PER_REPEAT = 3;

export function limitCases(context: LimitContext): LimitCase[] {
  return [exportSize(context)];
}

/** The keys LIM-5 needs that the description left out, and the case's reason not to run. */
function notRun(context: LimitContext): string | undefined {
  const { target } = context;
  const unstated = [
    ["contactsUrl", target.contactsUrl],
    ["messagingUrl", target.messagingUrl],
    ["export.longLists", target.export.longLists],
  ].filter(([, value]) => value === undefined);
  if (unstated.length === 0) return undefined;
  return `the target description does not say where the export servers are and which users have long contact lists: state ${unstated.map(([key]) => key).join(", ")} ([{ "user": …, "contacts": N }])`;
}

/** A user of the description's export.longLists, as the export steps keep one, and its list's contacts. */
interface LongList {
  state: ExportState;
  contacts: string[];
}

/** LIM-5: the export's 303 for a list of N contacts, every contact held afterwards. */
function exportSize(context: LimitContext): LimitCase {
  const { target } = context;
  const described = target.export.longLists ?? [];
  const lengths = [...new Set(described.map((list) => list.contacts))].sort((a, b) => a - b);
  const bySize = new Map<number, LongList>();
  const notes = new Set<string>();
  let exporter: Exporter | undefined;
  const open = () => {
    exporter ??= new Exporter(context);
    return exporter;
  };
  return {
    id: "LIM-5",
    size: { name: "N", unit: "contacts" },
    defaultSizes: lengths,
    sizesHeld: true,
    series: [{ name: "export", unit: "ms", expected: "linear" }],
    interleaved: true,
    notRun: () => notRun(context),
    requests: (_n, repeats) => 1 + repeats * (2 * EXPORTS_PER_REPEAT + 1),
    async prepare(n) {
      const user = described.find((list) => list.contacts === n)?.user;
      if (user === undefined) throw new UnexpectedAnswer(`export.longLists names no user whose list holds ${n}`);
      bySize.set(n, await open().longList(user, n));
    },
    async measure(n) {
      const list = bySize.get(n) as LongList;
      const { ms, unreadable } = await open().exportOf(list);
      if (unreadable !== undefined) notes.add(`every contact at the messaging server not checked: ${unreadable}`);
      return { export: ms };
    },
    cleanup: async () => exporter?.close(),
    notes: () => {
      const users = exporter?.exportedUsers ?? new Set();
      if (users.size === 0) return [...notes];
      const left = `the contacts imported stay on the messaging server (${[...users].join(", ")}): the spec gives no way to delete them`;
      return [...notes, left];
    },
  };
}

/** The case's client, exporting as a client of the spec does. */
class Exporter {
  private readonly limit: LimitClient;
  /** The users whose lists an export was sent for: the messaging server may hold them now. */
  readonly exportedUsers = new Set<string>();
  /** What the export steps' helpers read and send with (checks.ts). */
  private readonly world: Pick<SxdWorld, "http" | "target">;

  constructor(private readonly context: LimitContext) {
    // Large enough for the longest list described, read whole.
    const limit = new LimitClient(context, 64 * 1024 * 1024);
    this.limit = limit;
    this.world = {
      target: context.target,
      get http() {
        return limit.http;
      },
    };
  }

  /** The user's list, read once: it must hold the `n` contacts the description states. */
  async longList(user: string, n: number): Promise<LongList> {
    const { contactsUrl = "", messagingUrl = "" } = this.context.target;
    const state: ExportState = {
      contactsUrl,
      messagingUrl,
      user,
      listUrl: `${contactsUrl}/user/${encodeURIComponent(user)}/contacts`,
    };
    const listed = await this.readList(state);
    const contacts = stepRead(() => contactListOf(listed)).contacts;
    if (contacts.length !== n)
      throw new UnexpectedAnswer(
        `the list of ${user} holds ${contacts.length} contacts, not the ${n} export.longLists states`,
      );
    return { state, contacts };
  }

  /**
   * EXPORTS_PER_REPEAT exports, each the list read for a fresh link and the POST timed to its 303,
   * then every contact looked for at the messaging server. Returns the median time, and why the
   * contacts could not be checked.
   */
  async exportOf(list: LongList): Promise<{ ms: number; unreadable?: string }> {
    const { state } = list;
    const times: number[] = [];
    while (times.length < EXPORTS_PER_REPEAT) {
      const listed = await this.readList(state);
      const link = stepRead(() => exportLinkOf(this.world, state, listed));
      const what = `POST ${link.href} (the export of ${list.contacts.length} contacts of ${state.user})`;
      const started = performance.now();
      const reply = await this.send(() => this.world.http.send("POST", link.href), what);
      times.push(performance.now() - started);
      this.exportedUsers.add(state.user);
      state.exportReply = judged(reply, what, exported);
    }
    const ms = pointOf(0, times).median;
    const check = await this.send(() => checkAllHeld(this.world, state, list.contacts), "reading the export result");
    if (check.kind === "all held") return { ms };
    if (check.exchange !== undefined && check.exchange.response.status >= 500)
      throw new LimitFinding(`reading the export result answered ${check.exchange.response.status}`, check.exchange);
    if (check.kind === "missing")
      throw new LimitFinding(
        `after the export of ${state.user}'s ${list.contacts.length} contacts: expected ${check.expected}, got ${check.got}`,
        check.exchange,
      );
    return { ms, unreadable: check.reason };
  }

  private async readList(state: ExportState): Promise<Answered> {
    const what = `GET ${state.listUrl}`;
    const reply = await this.send(
      () => this.world.http.send("GET", state.listUrl, { headers: { accept: "application/xml" } }),
      what,
    );
    return judged(reply, what, (status) => status === 200);
  }

  private send<T>(send: () => Promise<T>, what: string): Promise<T> {
    return answerOf(send, this.limit.http.exchanges, what);
  }

  async close(): Promise<void> {
    await this.limit.close();
  }
}

/** A reading of the export steps that fails (no link, not a contact list) ends the series, with what it says. */
function stepRead<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ConformanceFailure) throw new UnexpectedAnswer(error.message.split("\n", 2).join(": "));
    throw error;
  }
}
