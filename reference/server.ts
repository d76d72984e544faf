/**
 * Starts the reference servers: the base server (snapshot resources and digest-protected
 * resources), the contacts server and the messaging server. Each listens on its own port;
 * port 0 picks a free one.
 */
import { withoutTrailingSlashes } from "../lib/uri.ts";
import type { ReferenceContext, ServerUrls, Variant } from "./context.ts";
import { digestRoutes } from "./digest/routes.ts";
import { backendRoute } from "./export/backend.ts";
import { backendTokenCheck, contactsRoutes, messagingRoutes } from "./export/routes.ts";
import type { FaultName } from "./faults.ts";
import type { Route } from "./http/reply.ts";
import { type Listening, listen } from "./http/serve.ts";
import { snapshotRoutes } from "./snapshots/routes.ts";

export type ServerName = keyof ServerUrls;
export const SERVER_NAMES: readonly ServerName[] = ["base", "contacts", "messaging"];

/**
 * How to start the servers: where they listen, which of them, and everything their modules are
 * given as it is (ReferenceContext's settings: the token key, the nonce policy, the storage…).
 */
export interface ReferenceOptions extends Omit<ReferenceContext, "urls" | "faults" | "variant"> {
  host: string;
  ports: Record<ServerName, number>;
  /** Public URLs for absolute links (behind a proxy); default: the bound address. */
  publicUrls?: Partial<ServerUrls>;
  /** Which servers to start; the others are taken from publicUrls. */
  servers?: readonly ServerName[];
  faults?: readonly FaultName[];
  variant?: Variant;
  /** Per server; see ListenOptions. */
  maxConnections?: number;
}

export interface RunningReference {
  urls: ServerUrls;
  /** Where the servers started here listen (differs from urls behind a proxy). */
  boundUrls: Partial<ServerUrls>;
  context: ReferenceContext;
  /** Stops the servers; requests in flight get up to `graceMs` to finish (default 0). */
  close(graceMs?: number): Promise<void>;
}

export const DEFAULT_PORTS: Record<ServerName, number> = { base: 8080, contacts: 8081, messaging: 8082 };

export async function startReference(options: ReferenceOptions): Promise<RunningReference> {
  const { host, ports, publicUrls, servers = SERVER_NAMES, faults, variant, maxConnections, ...settings } = options;
  const context: ReferenceContext = {
    ...settings,
    urls: { base: "", contacts: "", messaging: "" },
    faults: new Set(faults ?? []),
    variant: variant ?? "standard",
  };
  const contactList = contactsRoutes(context);
  const routes: Record<ServerName, Route[]> = {
    base: [snapshotRoutes(context), digestRoutes(context)],
    contacts: [backendRoute(context, contactList, backendTokenCheck(context)), contactList],
    messaging: [messagingRoutes(context)],
  };
  const running = new Map<ServerName, Listening>();
  const boundUrls: Partial<ServerUrls> = {};
  const startOne = async (name: ServerName) => {
    const listening = await listen(routes[name], { host, port: ports[name], maxConnections });
    running.set(name, listening);
    boundUrls[name] = listening.boundUrl;
    context.urls[name] = trimSlash(publicUrls?.[name] ?? listening.boundUrl);
  };
  try {
    for (const name of SERVER_NAMES) {
      if (servers.includes(name)) await startOne(name);
      else context.urls[name] = trimSlash(publicUrls?.[name] ?? "");
    }
  } catch (error) {
    await Promise.all([...running.values()].map((l) => l.close()));
    throw error;
  }
  return {
    urls: context.urls,
    boundUrls,
    context,
    close: async (graceMs?: number) => {
      await Promise.all([...running.values()].map((l) => l.close(graceMs)));
      running.clear();
    },
  };
}

function trimSlash(url: string): string {
  return withoutTrailingSlashes(url);
}
