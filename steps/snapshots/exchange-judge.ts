/**
 * The snapshot rows a server broke in an exchange sxd saw between it and a real client
 * (`sxd interop`): the entry and its snapshots as read (SNAP-1, SNAP-4, SNAP-5), its answer
 * to a right update (SNAP-2: conditional, typed, a whole entry keeping the id as read, so no
 * client MUST row broken), and a read after a granted PUT serving another title (SNAP-8).
 * Where a failed task stopped: an update never sent, one refused, one granted that did not
 * take, or versions not walked; the rows whose breach there explains it (stopOf).
 */
import {
  brokenAmong,
  type RowBreak,
  type ServerExchange,
  type SidesBroken,
  type Stop,
} from "../../harness/interop/judging.ts";
import { readAtomEntry } from "../../lib/atom.ts";
import { ATOM_ENTRY_TYPE, mediaTypeMatches } from "../../lib/media-type.ts";
import type { RecordedRequest } from "../../lib/recording.ts";
import { isAbsoluteUri } from "../../lib/uri.ts";

const field = (fields: RecordedRequest["headers"], name: string) => {
  const value = fields[name];
  return Array.isArray(value) ? value.join(", ") : value;
};
const pathOf = (request: RecordedRequest) => request.target.split("?")[0] ?? request.target;

export function judgeServerExchange({ task, requests, subjectPath }: ServerExchange): RowBreak[] {
  if (task !== "update" && task !== "history") return [];
  const broken: RowBreak[] = [];
  const base = requests.filter((r) => r.server === "base");
  let lastModified: string | undefined;
  let readId: string | undefined;
  let putTitle: string | undefined;
  for (const request of base) {
    const path = pathOf(request);
    const where = `${request.method} ${request.target}`;
    const isResource = path === subjectPath;
    const isSnapshot = !isResource && path.startsWith(`${subjectPath}/`);
    if (request.method === "GET" && (isResource || isSnapshot) && request.reply.status === 200) {
      const row = isResource ? "SNAP-1" : "SNAP-5";
      const entry = readAtomEntry(request.reply.body);
      const type = field(request.reply.headers, "content-type");
      if (!mediaTypeMatches(type, ATOM_ENTRY_TYPE))
        broken.push({ id: row, reason: `${where}: Content-Type ${type ?? "(none)"}` });
      if (!entry.ok) {
        broken.push({ id: row, reason: `${where}: ${entry.error}` });
        continue;
      }
      const rel = (name: string) => entry.entry.links.find((link) => link.rel === name)?.href;
      if (isResource) {
        lastModified = field(request.reply.headers, "last-modified");
        readId = entry.entry.id;
        const missing = [
          ...(lastModified === undefined ? ["Last-Modified"] : []),
          ...(!entry.entry.title ? ["title"] : []),
          ...(!entry.entry.id ? ["id"] : []),
          ...(!entry.entry.authorName ? ["author name"] : []),
          ...(!entry.entry.content ? ["content"] : []),
          ...(!isAbsoluteUri(rel("self")) ? ["an absolute self link"] : []),
        ];
        if (missing.length > 0) broken.push({ id: "SNAP-1", reason: `${where}: no ${missing.join(", ")}` });
        if (task === "history" && !isAbsoluteUri(rel("previous")))
          broken.push({
            id: "SNAP-4",
            reason: `${where}: an entry of three versions without an absolute previous link`,
          });
        if (putTitle !== undefined && entry.entry.title !== putTitle)
          broken.push({ id: "SNAP-8", reason: `${where}: title "${entry.entry.title}" after a PUT of "${putTitle}"` });
      } else if (!rel("self") || !rel("next"))
        broken.push({
          id: "SNAP-5",
          reason: `${where}: a snapshot without ${!rel("self") ? "a self" : "a next"} link`,
        });
    }
    if (request.method === "PUT" && isResource) {
      const conditional = lastModified !== undefined && field(request.headers, "if-unmodified-since") === lastModified;
      const typed = mediaTypeMatches(field(request.headers, "content-type"), ATOM_ENTRY_TYPE);
      const entry = readAtomEntry(request.body);
      const status = request.reply.status;
      // A right update breaks no client MUST row: CSNAP-1 (a whole entry), CSNAP-2, CSNAP-3 (the id as read).
      const whole =
        entry.ok && [entry.entry.title, entry.entry.id, entry.entry.authorName, entry.entry.content].every(Boolean);
      const sameId = entry.ok && (readId === undefined || entry.entry.id === readId);
      if (conditional && typed && whole && sameId && status !== 204 && status !== 412)
        broken.push({ id: "SNAP-2", reason: `${where}: status ${status} for a conditional PUT of an entry, not 204` });
      if (status === 204 && request.reply.body !== "")
        broken.push({ id: "SNAP-2", reason: `${where}: 204 with a body` });
      if (status >= 200 && status < 300 && entry.ok) putTitle = entry.entry.title;
    }
  }
  return broken;
}

const ok = (request: RecordedRequest) => request.reply.status >= 200 && request.reply.status < 300;

/** Where a failed update or history stopped, and the rows of either side that explain it. */
export function stopOf({ task, requests, subjectPath }: ServerExchange, broken: SidesBroken): Stop | undefined {
  if (task !== "update" && task !== "history") return undefined;
  const explaining = brokenAmong(broken);
  if (task === "history")
    return { at: "the versions not walked", explaining: explaining(["SNAP-1", "SNAP-4", "SNAP-5", "CSNAP-5"]) };
  const puts = requests.filter((r) => r.server === "base" && r.method === "PUT" && pathOf(r) === subjectPath);
  const last = puts.at(-1);
  if (last === undefined) return { at: "no update sent", explaining: explaining(["SNAP-1"]) };
  if (!ok(last))
    return { at: "an update refused", explaining: explaining(["CSNAP-1", "CSNAP-2", "CSNAP-3", "CSNAP-4", "SNAP-2"]) };
  return { at: "an update granted that did not take", explaining: explaining(["SNAP-2", "SNAP-8"]) };
}
