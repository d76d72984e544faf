/**
 * CSNAP-5, on a run of the history task: the client walks the versions of the entry by the
 * previous and next links as served (absolute hrefs), and stops where the chain ends. Every
 * GET below the entry after the first must be a link an earlier reply served: an address
 * built by the client, one past the end of the chain included, is not.
 */

import { endOf, failed, type Grade, notRun, passed, type TaskRun } from "../../harness/evidence/client-evidence.ts";
import { readAtomEntry } from "../../lib/atom.ts";
import { urlOf } from "../../lib/digest-answers.ts";
import { entryPath } from "./client-grades.ts";

export function gradeWalk(run: TaskRun): Grade {
  const path = entryPath(run);
  const served = new Set<string>([run.environment.SXD_URL ?? ""]);
  const walked: string[] = [];
  for (const [index, request] of run.requests.entries()) {
    const url = urlOf(request);
    const below = request.target === path || request.target.startsWith(`${path}/`);
    if (request.method !== "GET" || !below) continue;
    if (!served.has(url))
      return failed(
        `request ${index + 1}: GET ${request.target} is no link sxd served before it: an address the client built`,
      );
    walked.push(request.target);
    const entry = readAtomEntry(request.reply.body);
    if (!entry.ok) continue;
    for (const link of entry.entry.links) if (link.rel === "previous" || link.rel === "next") served.add(link.href);
  }
  if (!walked.some((target) => target !== path))
    return notRun(`the client read no version before the current one (${endOf(run)}): no walk to judge`);
  const walk = `${walked.length} read(s) of the entry and its snapshots, each by a link as served`;
  if (run.recorded) return passed(`${walk} (${run.recorded})`);
  const printed = run.stdout
    .trim()
    .split("\n")
    .map((line) => line.trim());
  const expected = run.expectedOutput ?? [];
  const output =
    printed.join("|") === expected.join("|")
      ? "and printed every title, newest first"
      : `and printed ${JSON.stringify(printed)}, not ${JSON.stringify(expected)}`;
  return passed(`${walk}, ${output}`);
}
