/**
 * The export rows a server broke in an exchange sxd saw between it and a real client
 * (`sxd interop`): the contact list it served (EXP-1, EXP-2, EXP-3), its answer to the export
 * POST (EXP-4), and, after a 303, the contacts missing on the messaging server (EXP-5). Where
 * a failed export stopped (no export POST, the POST refused, the contacts missing after a 303)
 * and the rows that explain it: stopOf.
 */

import { stated } from "../../harness/description/target.ts";
import {
  brokenAmong,
  type RowBreak,
  type ServerExchange,
  type SidesBroken,
  type Stop,
} from "../../harness/interop/judging.ts";
import { sameOriginNames } from "../../harness/interop/origins.ts";
import { mediaTypeMatches } from "../../lib/media-type.ts";
import type { RecordedRequest } from "../../lib/recording.ts";
import { isAbsoluteUri } from "../../lib/uri.ts";
import { findExportLink, importToken, isOnServer, readContactList } from "./contact-list.ts";

const header = (request: RecordedRequest, name: string) => {
  const value = request.reply.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
};

export function judgeServerExchange({
  task,
  requests,
  target,
  subjectPath,
  effectProblem,
  proxied,
}: ServerExchange): RowBreak[] {
  if (task !== "export") return [];
  const broken: RowBreak[] = [];
  const { user } = stated(target, "export");
  // The messaging server under each name a client resolves to it (localhost:PORT is 127.0.0.1:PORT).
  const messaging = [target.messagingUrl, proxied.messaging]
    .filter((url): url is string => url !== undefined)
    .flatMap(sameOriginNames);
  const listReads = requests.filter(
    (r) => r.server === "contacts" && r.method === "GET" && r.target.split("?")[0] === subjectPath,
  );
  // The export links as served: a right export POST (no client MUST row broken, CEXP-1) goes to one of them.
  const served = new Set<string>();
  for (const read of listReads) {
    const where = `GET ${read.target}`;
    if (read.reply.status !== 200) {
      broken.push({ id: "EXP-1", reason: `${where}: status ${read.reply.status}, not 200` });
      continue;
    }
    if (!mediaTypeMatches(header(read, "content-type"), "application/xml;charset=UTF-8"))
      broken.push({ id: "EXP-1", reason: `${where}: Content-Type ${header(read, "content-type") ?? "(none)"}` });
    const list = readContactList(read.reply.body);
    if (!list.ok) {
      broken.push({ id: "EXP-1", reason: `${where}: ${list.error}` });
      continue;
    }
    const self = list.value.links.find((link) => link.rel === "self");
    if (!isAbsoluteUri(self?.href))
      broken.push({ id: "EXP-2", reason: `${where}: no rel=self link with an absolute href` });
    const link = messaging.map((url) => findExportLink(list.value.links, url, target.export.rel)).find(Boolean);
    const linked = link?.href === undefined ? undefined : safePath(link.href, true);
    if (linked !== undefined) served.add(linked);
    const onMessaging =
      link?.href !== undefined &&
      messaging.some((url) => isOnServer(link.href, url) && importToken(link.href as string, url, user).ok);
    if (!link || !onMessaging || !link.title?.trim())
      broken.push({
        id: "EXP-3",
        reason: `${where}: ${link ? `the export link ${link.href} is not /user/${user}/import;t=<token> on the messaging server with a title` : "no export link"}`,
      });
  }
  const exports = requests.filter(
    (r) =>
      r.server === "messaging" &&
      r.method === "POST" &&
      r.target.includes("/import;t=") &&
      r.body === "" &&
      (served.size === 0 || served.has(r.target)),
  );
  for (const post of exports) {
    const where = `POST ${post.target}`;
    const location = header(post, "location");
    const path = location === undefined ? undefined : safePath(location);
    const problems = [
      ...(post.reply.status !== 303 ? [`status ${post.reply.status}, not 303`] : []),
      ...(path !== `/user/${encodeURIComponent(user)}` ? [`Location ${location ?? "(none)"}`] : []),
      ...(!mediaTypeMatches(header(post, "content-type"), "application/xml;charset=UTF-8")
        ? [`Content-Type ${header(post, "content-type") ?? "(none)"}`]
        : []),
    ];
    if (problems.length > 0) broken.push({ id: "EXP-4", reason: `${where}: ${problems.join(", ")}` });
  }
  if (effectProblem && exports.some((post) => post.reply.status === 303))
    broken.push({ id: "EXP-5", reason: `after a 303 to a bodiless POST: ${effectProblem}` });
  return broken;
}

/** Where a failed export stopped, and the rows of either side that explain it. */
export function stopOf({ task, requests }: ServerExchange, broken: SidesBroken): Stop | undefined {
  if (task !== "export") return undefined;
  const explaining = brokenAmong(broken);
  const posts = requests.filter((r) => r.server === "messaging" && r.method === "POST");
  if (posts.length === 0)
    return { at: "no export POST", explaining: explaining(["EXP-1", "EXP-2", "EXP-3", "CEXP-1", "CEXP-4"]) };
  if (!posts.some((post) => post.reply.status === 303))
    return { at: "the export POST refused", explaining: explaining(["CEXP-1", "CEXP-2", "EXP-4"]) };
  return { at: "the contacts missing after a 303", explaining: explaining(["EXP-5", "CEXP-2", "CEXP-3"]) };
}

/** The path of a URL (with its query where `withQuery`), or undefined where it is no URL. */
function safePath(location: string, withQuery = false): string | undefined {
  try {
    const url = new URL(location, "http://placeholder");
    return withQuery ? `${url.pathname}${url.search}` : url.pathname;
  } catch {
    return undefined;
  }
}
