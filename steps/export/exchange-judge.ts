/**
 * The export rows a server broke in an exchange sxd saw between it and a real client
 * (`sxd interop`): the contact list it served (EXP-1, EXP-2, EXP-3), its answer to the export
 * POST (EXP-4), and, after a 303, the contacts missing on the messaging server (EXP-5).
 */
import type { RowBreak, ServerExchange } from "../../harness/interop/judging.ts";
import { stated } from "../../harness/target.ts";
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
  const messaging = [target.messagingUrl, proxied.messaging].filter((url): url is string => url !== undefined);
  const listReads = requests.filter(
    (r) => r.server === "contacts" && r.method === "GET" && r.target.split("?")[0] === subjectPath,
  );
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
    (r) => r.server === "messaging" && r.method === "POST" && r.target.includes("/import;t=") && r.body === "",
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

function safePath(location: string): string | undefined {
  try {
    return new URL(location, "http://placeholder").pathname;
  } catch {
    return undefined;
  }
}
