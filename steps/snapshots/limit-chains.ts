/**
 * The resources the snapshot LIM cases measure on: made under snapshots.collection, brought to
 * N versions by conditional updates (each after a read of the validators it sends back), and
 * deleted at the end whatever happened. Every reply is read by the rules of `sxd limits`
 * (harness/limits/case.ts): a stated limit ends the series, a 5xx or no answer is a finding.
 */

import { type Answered, headerOf } from "../../harness/evidence/exchange.ts";
import { answerOf, judged, type LimitContext } from "../../harness/limits/case.ts";
import { ATOM_ENTRY_TYPE } from "../../lib/media-type.ts";
import type { HttpClient } from "../support/http.ts";
import { LimitClient } from "../support/limit-client.ts";
import { entryBody, isSuccess, newScratch, putScratch, type ScratchResource, versionNumbered } from "./snapshots.ts";

/** Requests one version costs: the read of its validators and the PUT. */
export const REQUESTS_PER_VERSION = 2;

export class LimitChains {
  private readonly limit: LimitClient;
  /** Every resource made and not known deleted: deleted by cleanup(). */
  private readonly made = new Set<string>();

  constructor(private readonly context: LimitContext) {
    // Large enough for LIM-6's largest entry read back.
    this.limit = new LimitClient(context, 32 * 1024 * 1024);
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

  /** A new resource of `versions` versions (s1 to s<versions - 1>, and the current one). */
  async chain(versions: number, content = ""): Promise<ScratchResource> {
    const resource = newScratch(this.context.target);
    const created = await answerOf(() => putScratch(this.http, resource), this.http.exchanges, "creating a resource");
    if (isSuccess(created)) this.made.add(resource.url);
    judged(created, `PUT with If-None-Match: * at ${resource.url}`, (status) => status >= 200 && status < 300);
    while (resource.versions.length < versions) await this.update(resource, content);
    return resource;
  }

  /** Reads the validators, then puts the next version; returns the PUT's reply and how long it took. */
  async update(resource: ScratchResource, content = ""): Promise<{ reply: Answered; ms: number }> {
    const read = await this.send("GET", resource.url, `GET ${resource.url}`, (status) => status === 200);
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
    return { reply, ms };
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
