/**
 * Entries made for client tasks: a resource with a history of versions, written straight into
 * the snapshot store (nothing is sent, nothing recorded), and the staged refusal of an update:
 * the client's first PUT answered 412, as if the entry had changed since its read.
 */
import { randomBytes } from "node:crypto";
import { toWholeSeconds } from "../../lib/http-date.ts";
import type { StagedCondition } from "../../lib/recording.ts";
import { errorReply, type Route } from "../http/reply.ts";
import { COLLECTION } from "../snapshots/chain.ts";
import type { SnapshotStore, Version } from "../snapshots/store.ts";

/** Makes `/entries/<fresh name>` with one version per title, oldest first, a minute apart and an hour ago; returns its path. */
export function prepareEntry(store: SnapshotStore, titles: readonly string[]): string {
  const name = `client-${randomBytes(6).toString("base64url")}`;
  const path = `${COLLECTION}${name}`;
  const id = `urn:uuid:${crypto.randomUUID()}`;
  const start = toWholeSeconds(Date.now()) - 3600_000;
  const incarnation = randomBytes(6).toString("base64url");
  const versions: Version[] = titles.map((title, k) => ({
    entry: { id, title, authorName: "sxd", content: { text: `version ${k + 1} of ${name}`, type: "text" } },
    lastModified: start + k * 60_000,
    etag: `"${incarnation}-${k + 1}"`,
  }));
  const [first, ...later] = versions;
  if (!first) throw new Error("an entry needs at least one title");
  store.create(path, incarnation, first);
  for (const version of later) store.append(path, version);
  return path;
}

/** The staged "precondition-failed": the first PUT of a run is answered 412 without being applied. */
export function stagedPreconditionRoute(once: (condition: StagedCondition) => boolean): Route {
  return async (request) => {
    if (request.method !== "PUT" || !request.path.startsWith(COLLECTION) || !once("precondition-failed"))
      return undefined;
    return errorReply(412, "staged by sxd: the entry changed since your read; read it again");
  };
}
