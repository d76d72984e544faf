/**
 * CDIG-7, a SHOULD: offered several algorithms, the client answers the first one it supports
 * and never one not offered (RFC 7616 §3.7). What a client supports is read from what it
 * answered: the plain run offers SHA-256 then MD5, sxd runs the task again with MD5 first and
 * with MD5 alone, and an algorithm the client answered right in any run is one it supports. A run in
 * which it answered nothing, though one it supports was offered, did not take the first it
 * supports either; MD5 is one every client supports (SPEC.md: the client computes the response
 * with MD5), so one exchange alone shows that much: several offered, MD5 among them, no answer.
 */

import {
  type ClientUser,
  describeRun,
  endOf,
  failed,
  type Grade,
  notRun,
  passed,
  placeOf,
  type TaskRun,
} from "../../harness/evidence/client-evidence.ts";
import { parseChallenges } from "../../lib/auth-params.ts";
import { digestAnswers } from "../../lib/digest-answers.ts";
import type { RecordedRequest } from "../../lib/recording.ts";
import { provesSecret } from "./client-grades.ts";

/** The algorithms the first 401 of a run offered, in order. */
function offeredIn(requests: readonly RecordedRequest[]): string[] {
  const first = requests.find((r) => r.reply.status === 401 && r.reply.headers["www-authenticate"] !== undefined);
  const parsed = first && parseChallenges(first.reply.headers["www-authenticate"] ?? "");
  if (!parsed?.ok) return [];
  return parsed.value
    .filter((c) => c.scheme.toLowerCase() === "digest")
    .map((c) => (c.params.get("algorithm") ?? "MD5").toUpperCase());
}

interface Choice {
  run: TaskRun;
  offered: string[];
  /** The algorithm of the first answer, where the client answered. */
  chosen?: string;
  number?: number;
}

export function gradeAlgorithmChoice(runs: readonly TaskRun[], user: ClientUser): Grade {
  const choices = runs.map((run): Choice & { proven?: boolean } => {
    const answer = digestAnswers(run.requests)[0];
    const offered = offeredIn(run.requests);
    if (!answer) return { run, offered };
    const chosen = (answer.params.get("algorithm") ?? "MD5").toUpperCase();
    // Supported is what the client computed right: a name it wrote over another hash proves nothing.
    const proven = user.password === undefined || provesSecret(answer, user);
    return { run, offered, chosen, number: answer.number, proven };
  });
  const answered = choices.filter((c) => c.chosen !== undefined);
  const supported = choices.filter((c) => c.proven);
  const skippedMd5 = choices.find((c) => c.chosen === undefined && c.offered.length > 1 && c.offered.includes("MD5"));
  if (answered.length === 0 && skippedMd5) return skippedMd5Grade(skippedMd5);
  if (answered.length === 0)
    return notRun(
      `the client answered no challenge in ${runs.length} run(s)${runs[0] ? ` (${endOf(runs[0])})` : ""}: see CDIG-1`,
    );
  const where = (c: Choice) => (c.number ? placeOf(c.run, c.number) : describeRun(c.run));
  const unoffered = answered.find((c) => !c.offered.includes(c.chosen ?? ""));
  if (unoffered)
    return failed(
      `${where(unoffered)}: algorithm ${unoffered.chosen} was not offered (${unoffered.offered.join(", ")})`,
    );
  for (const c of choices) {
    if (c.offered.length === 0) continue;
    const earlier = c.chosen === undefined ? c.offered : c.offered.slice(0, c.offered.indexOf(c.chosen));
    const proof = supported.find((other) => other.chosen !== undefined && earlier.includes(other.chosen));
    if (proof)
      return failed(
        `${where(c)}: offered ${c.offered.join(", ")}, the client answered ${c.chosen ?? "none of them"}, though it answered ${proof.chosen} in ${where(proof)}: not the first it supports`,
      );
  }
  if (skippedMd5) return skippedMd5Grade(skippedMd5);
  return passed(
    choices
      .filter((c) => c.offered.length > 0)
      .map((c) => `offered ${c.offered.join(", ")}: ${c.chosen ?? "no answer"}`)
      .join("; "),
  );
}

/** A run offered several algorithms, MD5 among them, and the client answered none. */
function skippedMd5Grade(c: Choice): Grade {
  return failed(
    `${describeRun(c.run)}: offered ${c.offered.join(", ")}, the client answered none of them, though MD5 was among them (SPEC.md: the client computes the response with MD5): not the first it supports`,
  );
}
