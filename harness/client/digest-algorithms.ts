/**
 * CDIG-7, a SHOULD: offered several algorithms, the client answers the first one it supports
 * and never one not offered (RFC 7616 §3.7). What a client supports is read from what it
 * answered: the plain run offers SHA-256 then MD5, sxd runs the task again with MD5 first and
 * with MD5 alone, and an algorithm the client answered in any run is one it supports.
 */
import { parseChallenges } from "../../lib/auth-params.ts";
import type { RecordedRequest } from "../../lib/recording.ts";
import { digestAnswers } from "./credentials.ts";
import { describeRun, endOf, failed, type Grade, notRun, passed, type TaskRun } from "./evidence.ts";

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
  chosen: string;
  number: number;
}

export function gradeAlgorithmChoice(plain: TaskRun, staged: readonly TaskRun[]): Grade {
  const choices = [plain, ...staged].flatMap((run): Choice[] => {
    const answer = digestAnswers(run.requests)[0];
    if (!answer) return [];
    const chosen = (answer.params.get("algorithm") ?? "MD5").toUpperCase();
    return [{ run, offered: offeredIn(run.requests), chosen, number: answer.number }];
  });
  if (choices[0]?.run !== plain) return notRun(`the client did not answer the challenge (${endOf(plain)}): see CDIG-1`);
  const where = (c: Choice) => `${describeRun(c.run)}, request ${c.number}`;
  const unoffered = choices.find((c) => !c.offered.includes(c.chosen));
  if (unoffered)
    return failed(
      `${where(unoffered)}: algorithm ${unoffered.chosen} was not offered (${unoffered.offered.join(", ")})`,
    );
  for (const c of choices) {
    const earlier = c.offered.slice(0, c.offered.indexOf(c.chosen));
    const proof = choices.find((other) => earlier.includes(other.chosen));
    if (proof)
      return failed(
        `${where(c)}: offered ${c.offered.join(", ")}, the client answered ${c.chosen}, though it answered ${proof.chosen} in ${where(proof)}: not the first it supports`,
      );
  }
  return passed(choices.map((c) => `offered ${c.offered.join(", ")}: ${c.chosen}`).join("; "));
}
