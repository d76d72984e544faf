/**
 * The client rows of an export (CEXP-1..3), pure functions of a recorded run of the export
 * task, whose SXD_URL is a contact list of sxd's contacts server. The export link is judged as
 * served: each contact list the client read names it, and the POST must go to that href.
 */

import { endOf, failed, type Grade, notRun, passed, type TaskRun } from "../../harness/evidence/client-evidence.ts";
import { listLinks } from "../../lib/contacts.ts";
import { fieldOf, urlOf } from "../../lib/digest-answers.ts";
import type { RecordedRequest } from "../../lib/recording.ts";

interface ExportPost {
  number: number;
  request: RecordedRequest;
  /** Whether the POST went to an export link a list the client read before served, exactly. */
  asServed: boolean;
}

/** The client's POSTs to the messaging server, each with whether it used a link as served. */
function exportPosts(run: TaskRun): ExportPost[] {
  const served = new Set<string>();
  const posts: ExportPost[] = [];
  for (const [index, request] of run.requests.entries()) {
    if (request.bySxd) continue;
    if (request.server === "contacts" && request.method === "GET" && request.reply.status === 200)
      for (const href of listLinks(request.reply.body)) served.add(href);
    if (request.server === "messaging" && request.method === "POST")
      posts.push({ number: index + 1, request, asServed: served.has(urlOf(request)) });
  }
  return posts;
}

function postsOr(run: TaskRun): ExportPost[] | Grade {
  const posts = exportPosts(run);
  return posts.length > 0
    ? posts
    : failed(`the client sent no POST to the messaging server (${endOf(run)}): it did not start the export`);
}

/** CEXP-1: the export starts with a POST to the export link's href, as served. */
export function gradeLinkAsServed(run: TaskRun): Grade {
  const posts = postsOr(run);
  if (!Array.isArray(posts)) return posts;
  const first = posts[0] as ExportPost;
  if (!first.asServed)
    return failed(
      `request ${first.number}: POST ${urlOf(first.request)} is not the href of an export link the contact list served: an address the client built or changed`,
    );
  return passed(`request ${first.number}: POST to the export link as served (answered ${first.request.reply.status})`);
}

/** CEXP-2: the POST carries no body. */
export function gradeNoBody(run: TaskRun): Grade {
  const posts = postsOr(run);
  if (!Array.isArray(posts)) return posts;
  const withBody = posts.find((post) => post.request.body.length > 0);
  if (withBody)
    return failed(
      `request ${withBody.number}: the export POST carries ${Buffer.byteLength(withBody.request.body)} byte(s) of body`,
    );
  return passed(`${posts.length} export POST(s), none with a body`);
}

/**
 * CEXP-3: the 303 is followed with GET on its Location, and the POST is not sent again. A 303
 * is one to follow wherever the POST went: to the link as served, or to an address the client
 * built (CEXP-1's failure). Sent again: to the same address, or to an export link as served.
 */
export function gradeSeeOther(run: TaskRun): Grade {
  const posts = exportPosts(run);
  const answered = posts.find((post) => post.request.reply.status === 303);
  if (!answered)
    return notRun(`no POST to the messaging server got a 303 (${endOf(run)}): nothing to follow (see CEXP-1)`);
  const given = fieldOf({ ...answered.request, headers: answered.request.reply.headers }, "location") ?? "";
  const location = URL.canParse(given, urlOf(answered.request)) ? new URL(given, urlOf(answered.request)).href : given;
  const later = run.requests.slice(answered.number);
  const again = posts.find(
    (post) => post.number > answered.number && (post.asServed || urlOf(post.request) === urlOf(answered.request)),
  );
  if (again)
    return failed(`request ${again.number}: the export POST sent again after the 303 of request ${answered.number}`);
  const followed = later.findIndex((request) => request.method === "GET" && urlOf(request) === location);
  const otherwise = later.findIndex((request) => urlOf(request) === location);
  if (followed < 0 && otherwise >= 0)
    return failed(
      `request ${answered.number + otherwise + 1}: ${later[otherwise]?.method} on the Location ${location} of the 303 of request ${answered.number}, not GET`,
    );
  if (followed < 0)
    return failed(
      `after the 303 of request ${answered.number}, the client did not GET its Location ${location} (${endOf(run)})`,
    );
  return passed(`request ${answered.number + followed + 1}: GET ${location}, the Location of the 303`);
}
