/**
 * The client rows of snapshot resources (CSNAP), pure functions of recorded runs of the
 * update and history tasks, whose SXD_URL is an entry sxd prepared. An update is judged on
 * every PUT the client sent to it, each against the client's latest read before it.
 */

import { endOf, failed, type Grade, notRun, passed, type TaskRun } from "../../harness/evidence/client-evidence.ts";
import { readAtomEntry } from "../../lib/atom.ts";
import { fieldOf } from "../../lib/digest-answers.ts";
import { parseHttpDate } from "../../lib/http-date.ts";
import { ATOM_ENTRY_TYPE, mediaTypeMatches } from "../../lib/media-type.ts";
import type { RecordedRequest } from "../../lib/recording.ts";

interface Numbered {
  number: number;
  request: RecordedRequest;
}

/** The path of the entry the task is about. */
export function entryPath(run: TaskRun): string {
  return new URL(run.environment.SXD_URL ?? "").pathname;
}

function numbered(run: TaskRun): Numbered[] {
  return run.requests.map((request, index) => ({ number: index + 1, request }));
}

/** The PUTs to the entry, each with the client's latest successful read of it before it. */
function updates(run: TaskRun): Array<Numbered & { read?: Numbered }> {
  const path = entryPath(run);
  let read: Numbered | undefined;
  return numbered(run).flatMap((item) => {
    if (item.request.target !== path) return [];
    if (item.request.method === "GET" && item.request.reply.status === 200) read = item;
    return item.request.method === "PUT" ? [{ ...item, read }] : [];
  });
}

function updatesOr(run: TaskRun): ReturnType<typeof updates> | Grade {
  const puts = updates(run);
  return puts.length > 0
    ? puts
    : failed(`the client sent no PUT to ${entryPath(run)} (${endOf(run)}): it did not update the entry`);
}

/** CSNAP-1: the PUT's media type, and an Atom entry with author, title, id and content. */
export function gradeUpdateForm(run: TaskRun): Grade {
  const puts = updatesOr(run);
  if (!Array.isArray(puts)) return puts;
  for (const { number, request } of puts) {
    const type = fieldOf(request, "content-type");
    if (!mediaTypeMatches(type, ATOM_ENTRY_TYPE))
      return failed(`request ${number}: Content-Type ${type ?? "(none)"}, not ${ATOM_ENTRY_TYPE}`);
    const read = readAtomEntry(request.body);
    if (!read.ok) return failed(`request ${number}: the body is not an Atom entry: ${read.error}`);
    const { authorName, title, id, content } = read.entry;
    const absent = Object.entries({ "author name": authorName, title, id, content }).filter(
      ([, value]) => value === undefined,
    );
    if (absent.length > 0)
      return failed(`request ${number}: the entry has no ${absent.map(([name]) => name).join(", ")}`);
  }
  return passed(
    `${puts.length} PUT(s), each an Atom entry with author, title, id and content, typed ${ATOM_ENTRY_TYPE}`,
  );
}

/** CSNAP-2: If-Unmodified-Since is the Last-Modified of the latest read. */
export function gradeUnmodifiedSince(run: TaskRun): Grade {
  const puts = updatesOr(run);
  if (!Array.isArray(puts)) return puts;
  for (const { number, request, read } of puts) {
    if (!read) return failed(`request ${number}: a PUT without a read of the entry before it`);
    const given = fieldOf(request, "if-unmodified-since");
    const lastModified = String(read.request.reply.headers["last-modified"] ?? "(none)");
    const same = given !== undefined && parseHttpDate(given)?.getTime() === parseHttpDate(lastModified)?.getTime();
    if (!same)
      return failed(
        `request ${number}: If-Unmodified-Since ${given ?? "(none)"}, but the read in request ${read.number} said Last-Modified ${lastModified}`,
      );
  }
  return passed(`${puts.length} PUT(s), each with If-Unmodified-Since equal to the Last-Modified just read`);
}

/** CSNAP-3: the entry id of the PUT is the one the read served. */
export function gradeIdKept(run: TaskRun): Grade {
  const puts = updatesOr(run);
  if (!Array.isArray(puts)) return puts;
  for (const { number, request, read } of puts) {
    const sent = readAtomEntry(request.body);
    const served = read && readAtomEntry(read.request.reply.body);
    if (!served?.ok)
      return notRun(`request ${number}: no read of the entry before the PUT to compare its id with (see CSNAP-2)`);
    const id = sent.ok ? sent.entry.id : undefined;
    if (id !== served.entry.id)
      return failed(`request ${number}: entry id ${id ?? "(none)"}, but the entry has ${served.entry.id}`);
  }
  return passed(`${puts.length} PUT(s), each keeping the entry id`);
}

/**
 * CSNAP-4, on the run where sxd answered the first PUT 412: the client reads the entry again
 * after the 412 before any other PUT; one that stops there overwrites nothing it has not read. Its control is the PUT that sxd refused, in that run:
 * whether the client would have updated without the 412 does not change what it does after one.
 */
export function gradeRereadAfter412(run: TaskRun): Grade {
  const path = entryPath(run);
  const items = numbered(run).filter((item) => item.request.target === path);
  const refused = items.findIndex((item) => item.request.method === "PUT" && item.request.reply.status === 412);
  if (refused < 0) return notRun(`the client sent no PUT that sxd could refuse (${endOf(run)})`);
  const after = items.slice(refused + 1);
  const reread = after.findIndex((item) => item.request.method === "GET");
  const nextPut = after.findIndex((item) => item.request.method === "PUT");
  if (nextPut >= 0 && (reread < 0 || reread > nextPut))
    return failed(
      `after the 412 to request ${items[refused]?.number}, request ${after[nextPut]?.number} is a PUT with no read of the entry before it`,
    );
  if (reread < 0)
    return passed(
      `after the 412 to request ${items[refused]?.number}, the client sent no other PUT (${endOf(run)}): it overwrote nothing it had not read`,
    );
  return passed(
    `after the 412, the client read the entry again (request ${after[reread]?.number})${nextPut >= 0 ? " before its next PUT" : ""}`,
  );
}
