/**
 * The resources the snapshot LIM cases measure on: made under snapshots.collection, brought to
 * N versions by conditional updates (each after a read of the validators it sends back), and
 * deleted at the end whatever happened. Every reply is read by the rules of `sxd limits`
 * (harness/limits/case.ts): a stated limit ends the series, a 5xx or no answer is a finding.
 *
 * HTTP dates count whole seconds, and a correct server may give each version a second of its
 * own (SNAP-15): it holds an update that comes within the second of the version before until its
 * clock has passed it, or dates the version ahead of its clock. An update that is timed is
 * therefore sent only once the server's clock (its Date) has passed the Last-Modified of the
 * version before, so that its time is the update's and not the server's wait for its clock; the
 * chain it is timed on is built no faster than the server's clock moves (`paced`), or the wait
 * before the timed update would grow with the chain. Each timed update says the condition it was
 * measured under (`UNDER`), and the engine classes only repeats measured under one.
 */

import { type Answered, headerOf } from "../../harness/evidence/exchange.ts";
import { answerOf, judged, type LimitContext } from "../../harness/limits/case.ts";
import { ServerClock } from "../../harness/limits/server-clock.ts";
import { parseHttpDate } from "../../lib/http-date.ts";
import { ATOM_ENTRY_TYPE } from "../../lib/media-type.ts";
import type { HttpClient } from "../support/http.ts";
import { LimitClient } from "../support/limit-client.ts";
import { entryBody, isSuccess, newScratch, putScratch, type ScratchResource, versionNumbered } from "./snapshots.ts";

/** Requests one version costs: the read of its validators and the PUT. */
export const REQUESTS_PER_VERSION = 2;

/** The longest sxd waits for the server's clock before an update: a server dating further ahead is not waited for. */
export const CLOCK_WAIT_MS = 5_000;
/** Between two reads of the server's clock where the replies so far cannot tell when its second turns. */
const CLOCK_STEP_MS = 100;

/** The conditions a timed update is measured under. */
export const UNDER = {
  passed: "once the server's clock (its Date) had passed the Last-Modified of the version before",
  ahead: `while the server dated the version before more than ${CLOCK_WAIT_MS / 1000} s ahead of its clock (its Date), too far to wait for`,
  unread: "without a Date and a Last-Modified to read the server's clock by",
} as const;

/** The words for a server that gives each version a second of its own, where that bounds the sizes. */
export const ONE_VERSION_A_SECOND =
  "one version a second, as the server gives each version a second of its own (its Last-Modified moves on a second a version)";

/**
 * What the cases of one run have seen of the server's pace, shared so that a case starts from
 * what the one before saw: a chain took a second a version by the server's own doing (it held
 * each update for its clock), or with sxd's waits for its clock besides (a paced chain).
 */
interface SeenPace {
  byServer: boolean;
  paced: boolean;
}
const seenPaces = new WeakMap<LimitContext, SeenPace>();

export class LimitChains {
  private readonly limit: LimitClient;
  /** Every resource made and not known deleted: deleted by cleanup(). */
  private readonly made = new Set<string>();
  private readonly clock = new ServerClock();
  private readonly seen: SeenPace;

  constructor(private readonly context: LimitContext) {
    // Large enough for LIM-6's largest entry read back.
    this.limit = new LimitClient(context, 32 * 1024 * 1024);
    this.seen = seenPaces.get(context) ?? { byServer: false, paced: false };
    seenPaces.set(context, this.seen);
  }

  /**
   * Where chains have taken a second a version, each version dated a second after the one
   * before: the least time `versions` more versions take, for the deadline's planning. `paced`:
   * of chains built paced (chain()), which sxd's own waits for the server's clock may slow so.
   */
  paced(versions: number, paced = false): { ms: number; pace: string } | undefined {
    const seen = this.seen.byServer || (paced && this.seen.paced);
    return seen ? { ms: versions * 1000, pace: ONE_VERSION_A_SECOND } : undefined;
  }

  get http(): HttpClient {
    return this.limit.http;
  }

  /** A send judged by the rules of sxd limits: `expected` statuses pass, the rest is thrown. */
  async send(
    method: string,
    url: string,
    what: string,
    expected: (status: number) => boolean = (status) => status >= 200 && status < 300,
    options: { headers?: Record<string, string>; body?: string } = {},
  ): Promise<Answered> {
    const http = this.http;
    const reply = await answerOf(() => http.send(method, url, options), http.exchanges, what);
    return judged(reply, what, expected);
  }

  /**
   * A new resource of `versions` versions (s1 to s<versions - 1>, and the current one). `paced`:
   * for a chain an update will be timed on, each update waits until the server's clock has
   * reached the Last-Modified of the version before, so the chain never runs ahead of it.
   */
  async chain(versions: number, content = "", paced = false): Promise<ScratchResource> {
    const resource = newScratch(this.context.target);
    const started = Date.now();
    const created = await answerOf(() => putScratch(this.http, resource), this.http.exchanges, "creating a resource");
    if (isSuccess(created)) this.made.add(resource.url);
    judged(created, `PUT with If-None-Match: * at ${resource.url}`, (status) => status >= 200 && status < 300);
    const dates: Array<number | undefined> = [];
    let waitedMs = 0;
    while (resource.versions.length < versions) {
      const update = await this.update(resource, content, paced ? "reach" : undefined);
      dates.push(update.readDate);
      waitedMs += update.waitedMs;
    }
    // Each version a second after the one before, and the chain took about a second a version:
    // by the server's own doing, or with sxd's waits for its clock.
    const updates = dates.length;
    const ownSeconds = dates.every((date, i) => i === 0 || (date !== undefined && date > (dates[i - 1] ?? date)));
    const secondEach = (ms: number) => updates >= 2 && ownSeconds && ms >= (updates - 1) * 900;
    if (secondEach(Date.now() - started - waitedMs)) this.seen.byServer = true;
    if (secondEach(Date.now() - started)) this.seen.paced = true;
    return resource;
  }

  /**
   * Reads the validators, then puts the next version; returns the PUT's reply, how long it took,
   * the Last-Modified read before it and, for an update with `clock`, the condition it was sent
   * under. `clock`: "pass", sent once the server's clock has passed the version before's
   * Last-Modified (a timed update); "reach", once it has reached it (a paced chain).
   */
  async update(
    resource: ScratchResource,
    content = "",
    clock?: "pass" | "reach",
  ): Promise<{ reply: Answered; ms: number; readDate?: number; under?: string; waitedMs: number }> {
    const { read, modified, under, waitedMs } = await this.readValidators(resource, clock);
    const headers: Record<string, string> = { "content-type": ATOM_ENTRY_TYPE };
    const etag = headerOf(read, "etag");
    const lastModified = headerOf(read, "last-modified");
    if (etag && !etag.startsWith("W/")) headers["if-match"] = etag;
    if (lastModified) headers["if-unmodified-since"] = lastModified;
    const version = versionNumbered(resource.versions.length + 1);
    if (content) version.content = { text: content, type: "text", lang: "en" };
    const body = entryBody(resource.id, version);
    const started = performance.now();
    const reply = await this.send(
      "PUT",
      resource.url,
      `update ${resource.versions.length + 1} of ${resource.url}`,
      isOk,
      {
        headers,
        body,
      },
    );
    const ms = performance.now() - started;
    resource.versions.push(version);
    return { reply, ms, readDate: modified, waitedMs, ...(under === undefined ? {} : { under }) };
  }

  /**
   * The read of the validators an update sends back; with `clock`, read again (after a wait
   * the server's Dates so far say is enough) until the server's clock has passed ("pass") or
   * reached ("reach") the Last-Modified read, for at most CLOCK_WAIT_MS.
   */
  private async readValidators(
    resource: ScratchResource,
    clock?: "pass" | "reach",
  ): Promise<{ read: Answered; modified?: number; under?: string; waitedMs: number }> {
    const givingUp = Date.now() + CLOCK_WAIT_MS;
    let waitedMs = 0;
    for (;;) {
      const read = await this.send("GET", resource.url, `GET ${resource.url}`, (status) => status === 200);
      const date = parseHttpDate(headerOf(read, "date"))?.getTime();
      const modified = parseHttpDate(headerOf(read, "last-modified"))?.getTime();
      if (date !== undefined) {
        const sentAt = Date.parse(read.startedAt);
        this.clock.observe(date, sentAt, sentAt + read.durationMs);
      }
      if (clock === undefined) return { read, modified, waitedMs };
      if (date === undefined || modified === undefined) return { read, modified, under: UNDER.unread, waitedMs };
      const due = clock === "pass" ? modified + 1000 : modified;
      if (date >= due) return { read, modified, under: UNDER.passed, waitedMs };
      // A couple of ms past the moment the bounds give, or a short step where they do not tell yet.
      const at = Math.max((this.clock.localTimeOf(due) ?? 0) + 2, Date.now() + CLOCK_STEP_MS);
      if (at > givingUp) return { read, modified, under: UNDER.ahead, waitedMs };
      const wait = at - Date.now();
      waitedMs += wait;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** A GET's time; its reply must be 200. */
  async timedGet(url: string): Promise<number> {
    const started = performance.now();
    await this.send("GET", url, `GET ${url}`, (status) => status === 200);
    return performance.now() - started;
  }

  /** A DELETE's time; the resource is no longer the case's to delete. */
  async timedDelete(url: string): Promise<number> {
    const started = performance.now();
    await this.send("DELETE", url, `DELETE ${url}`);
    const ms = performance.now() - started;
    this.made.delete(url);
    return ms;
  }

  async cleanup(): Promise<void> {
    const http = this.limit.unguarded();
    for (const url of this.made) await http.send("DELETE", url).catch(() => undefined);
    this.made.clear();
    await http.close();
    await this.limit.close();
  }
}

const isOk = (status: number) => status >= 200 && status < 300;
