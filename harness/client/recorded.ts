/**
 * A client's requests recorded in one stream, where no command ran a task at a time: a HAR
 * file recorded elsewhere, or what arrived at sxd's servers while a person used the client
 * (--manual). The stream is split into the runs of the tasks it shows, each judged as a run
 * of that task would be; nothing can have been staged in it, so the rows of staged conditions
 * are not run.
 *
 * What makes a request part of a task:
 * - digest-get: where any request carries Digest credentials or got a Digest challenge,
 *   every request of the client (one run, in order, so nc and the nonces read as the client
 *   used them, and the secret is looked for everywhere); digest-post: the same, where one
 *   request with Digest is not a GET (the auth-int row is judged there);
 * - update: the reads and PUTs of the first entry the client PUT an Atom entry to;
 * - history: the reads of the first entry whose previous link the client followed, and of its
 *   snapshots;
 * - export: the requests to the contacts and the messaging servers.
 */
import { readAtomEntry } from "../../lib/atom.ts";
import { fieldOf, urlOf } from "../../lib/digest-answers.ts";
import type { RecordedRequest } from "../../lib/recording.ts";
import type { TaskRun } from "../evidence/client-evidence.ts";
import type { TaskName } from "./tasks.ts";

const hasDigestAnswer = (request: RecordedRequest) => /^\s*digest\s/i.test(fieldOf(request, "authorization") ?? "");

function hasDigestChallenge(request: RecordedRequest): boolean {
  const field = request.reply.headers["www-authenticate"];
  return request.reply.status === 401 && /(^|,)\s*digest\s/i.test(String(field ?? ""));
}

const pathOf = (request: RecordedRequest) => request.target.split("?")[0] ?? request.target;

/** The runs of the tasks the recording shows, in the catalogue's order of tasks; a task it does not show has none. */
export function runsOfRecording(requests: readonly RecordedRequest[], recorded: string): TaskRun[] {
  const fromClient = requests.filter((request) => !request.bySxd);
  const runs: TaskRun[] = [];
  const add = (task: TaskName, subject: RecordedRequest | undefined, taken: readonly RecordedRequest[]) => {
    if (subject && taken.length > 0) runs.push(recordedRun(task, urlOf(subject), taken, recorded));
  };
  const digest = fromClient.filter((request) => hasDigestAnswer(request) || hasDigestChallenge(request));
  // Every request the client sent, where it did Digest at all: the answers are judged, and
  // the secret is looked for in all of them.
  const digestRun = digest.length > 0 ? fromClient : [];
  add("digest-get", digest[0], digestRun);
  add("digest-post", digest[0], digest.some((request) => request.method !== "GET") ? digestRun : []);

  const entries = fromClient.filter((request) => request.server === "base");
  const updated = entries.find(
    (request, index) => request.method === "PUT" && isEntryUpdate(request, entries.slice(0, index)),
  );
  const updatePath = updated && pathOf(updated);
  add("update", updated, updatePath ? entries.filter((request) => pathOf(request) === updatePath) : []);

  const walked = walkedEntry(entries);
  const walkedPath = walked && pathOf(walked);
  const below = (request: RecordedRequest) =>
    pathOf(request) === walkedPath || pathOf(request).startsWith(`${walkedPath}/`);
  add("history", walked, walked ? entries.filter((request) => request.method === "GET" && below(request)) : []);

  const exported = requests.filter((request) => request.server !== "base");
  const listRead = exported.find((request) => request.server === "contacts" && !request.bySxd);
  add("export", listRead ?? exported.find((request) => !request.bySxd), exported);
  return runs;
}

/** A PUT of an Atom entry, or to an address the client read an Atom entry from: not a PUT of something else. */
function isEntryUpdate(put: RecordedRequest, before: readonly RecordedRequest[]): boolean {
  const isEntry = (text: string) => readAtomEntry(text).ok;
  return (
    isEntry(put.body) ||
    before.some((read) => read.method === "GET" && pathOf(read) === pathOf(put) && isEntry(read.reply.body))
  );
}

/** The first read of an entry whose previous link the client then followed. */
function walkedEntry(entries: readonly RecordedRequest[]): RecordedRequest | undefined {
  return entries.find((request, index) => {
    if (request.method !== "GET" || request.reply.status !== 200) return false;
    const read = readAtomEntry(request.reply.body);
    const previous = read.ok ? read.entry.links.find((link) => link.rel === "previous")?.href : undefined;
    return previous !== undefined && entries.slice(index + 1).some((later) => urlOf(later) === previous);
  });
}

function recordedRun(task: TaskName, url: string, requests: readonly RecordedRequest[], recorded: string): TaskRun {
  const times = requests.map((request) => Date.parse(request.at)).filter(Number.isFinite);
  return {
    task,
    environment: { SXD_TASK: task, SXD_URL: url },
    exitCode: null,
    timedOut: false,
    stdout: "",
    stderr: "",
    durationMs: times.length > 1 ? Math.max(...times) - Math.min(...times) : 0,
    requests: [...requests],
    recorded,
  };
}
