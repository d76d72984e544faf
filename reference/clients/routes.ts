/**
 * The routes of the servers that clients meet: the reference's own, the protected resource
 * of the client tasks before them, and a recorder around all, which keeps each request as
 * received with the reply it got.
 */
import type { Fields, RecordedRequest, StagedCondition } from "../../lib/recording.ts";
import type { ReferenceContext } from "../context.ts";
import { digestRoutes } from "../digest/routes.ts";
import { BACKEND_USER_AGENT } from "../export/import-store.ts";
import { contactsRoutes, messagingRoutes } from "../export/routes.ts";
import type { Route } from "../http/reply.ts";
import { dispatch } from "../http/serve.ts";
import { snapshotRoutes } from "../snapshots/routes.ts";
import type { SnapshotStore } from "../snapshots/store.ts";
import { clientDigestRoute, type Once, type Staged } from "./digest.ts";
import { stagedPreconditionRoute } from "./entries.ts";
import { stagedContactsRoute, stagedImportRoute } from "./export.ts";

/** What the servers share with the bench: the recording and the staged condition. */
export interface ClientSide {
  recorded: RecordedRequest[];
  staged: Staged | undefined;
  /** The snapshot resources, where sxd prepares the entries of the update and history tasks. */
  store: SnapshotStore;
}

type ServerName = RecordedRequest["server"];

export function clientRoutes(context: ReferenceContext, side: ClientSide): Record<ServerName, Route[]> {
  // Each staged condition acts once per run of a task: on the first request it applies to.
  const once: Once = (condition) => {
    const staged = side.staged;
    if (staged?.condition !== condition || staged.spent) return false;
    staged.spent = true;
    return true;
  };
  const staged = (condition: StagedCondition) =>
    side.staged?.condition === condition || side.staged?.offer === condition;
  const inner: Record<ServerName, Route[]> = {
    base: [
      clientDigestRoute({ once, staged }),
      stagedPreconditionRoute(once),
      snapshotRoutes(context, { store: side.store }),
      digestRoutes(context),
    ],
    contacts: [stagedContactsRoute(staged, [contactsRoutes(context)])],
    messaging: [stagedImportRoute(staged), messagingRoutes(context)],
  };
  const recording = (server: ServerName): Route[] => [
    async (request) => {
      const at = new Date().toISOString();
      const body = await request.body().catch(() => Buffer.alloc(0));
      const reply = await dispatch(inner[server], request);
      side.recorded.push({
        server,
        method: request.method,
        target: request.target,
        headers: fields(request.headers),
        body: body.toString("utf8"),
        at,
        reply: { status: reply.status, headers: fields(reply.headers ?? {}), body: String(reply.body ?? "") },
        // The messaging server's backend request names itself; a client may use any address.
        ...(server === "contacts" && request.headers["user-agent"] === BACKEND_USER_AGENT
          ? { bySxd: true as const }
          : {}),
      });
      return reply;
    },
  ];
  return { base: recording("base"), contacts: recording("contacts"), messaging: recording("messaging") };
}

function fields(headers: Record<string, string | string[] | number | undefined>): Fields {
  const out: Fields = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = typeof value === "number" ? String(value) : value;
  }
  return out;
}
