/**
 * The part of undici sxd uses: its Agent (plain, or from the proxy environment) and `request`.
 * undici's index also loads fetch, WebSocket, EventSource, cookies, caches and mocks, and,
 * by touching globalThis.Headers, node's own copy of undici as well: 110 modules in about
 * 65 ms, against 36 in about 26 ms here, in the run and in every parallel worker. The wiring
 * is the index's own: the request API on Dispatcher's prototype (it assigns the same
 * functions, so loading the index too changes nothing), and `request(url, options)` as
 * `dispatcher.request` with the URL's origin and path. undici.test.ts holds it to the index.
 */
import { createRequire } from "node:module";
import type * as Undici from "undici";

const require = createRequire(import.meta.url);

const DispatcherClass = require("undici/lib/dispatcher/dispatcher") as { prototype: object };
Object.assign(DispatcherClass.prototype, require("undici/lib/api"));

export const Agent = require("undici/lib/dispatcher/agent") as typeof Undici.Agent;
export const EnvHttpProxyAgent =
  require("undici/lib/dispatcher/env-http-proxy-agent") as typeof Undici.EnvHttpProxyAgent;
export type Dispatcher = Undici.Dispatcher;

type RequestOptions = Omit<Undici.Dispatcher.RequestOptions, "origin" | "path"> & {
  dispatcher: Undici.Dispatcher;
  /** The path as written after the origin, not normalised by the URL parser (dot segments kept). */
  asWritten?: boolean;
};

/** undici's `request(url, options)`, always through the dispatcher given. */
export function request(url: string, options: RequestOptions): Promise<Undici.Dispatcher.ResponseData> {
  const { dispatcher, asWritten, ...rest } = options;
  const { origin, pathname, search } = new URL(url);
  const path = asWritten && url.startsWith(origin) ? url.slice(origin.length) : `${pathname}${search}`;
  return dispatcher.request({ ...rest, origin, path });
}
