/**
 * The digest client rows about how a client keeps its secret and its counts (CDIG-3, CDIG-5,
 * CDIG-9 over every run of a task, CDIG-10 on its staged run): pure functions of recorded runs,
 * like digest-grades.ts.
 */

import {
  type ClientUser,
  endOf,
  failed,
  type Grade,
  notRun,
  passed,
  placeOf,
  type TaskRun,
} from "../../harness/evidence/client-evidence.ts";
import { digestAnswers, fieldOf } from "../../lib/digest-answers.ts";
import { answersIn, grouped, placeOfAnswer, provesSecret, SECRET_UNKNOWN, withoutAnswer } from "./client-grades.ts";

/**
 * CDIG-3: the secret is in no header, target or body the client sent, in any run of the task.
 * Basic credentials carry it whoever reads them; elsewhere sxd needs the secret to look for it.
 */
export function gradeSecretKept(runs: readonly TaskRun[], user: ClientUser): Grade {
  const sent = runs.flatMap((run) => run.requests.map((request, index) => ({ run, request, number: index + 1 })));
  if (!sent.some(({ request }) => fieldOf(request, "authorization") !== undefined))
    return notRun(`${withoutAnswer(runs)}, and no credentials of any kind: nothing to judge`);
  const basic =
    user.username !== undefined && user.password !== undefined
      ? Buffer.from(`${user.username}:${user.password}`).toString("base64")
      : undefined;
  const secret = user.password;
  const leaks = sent.flatMap(({ run, request, number }) => {
    const places = [
      ...Object.entries(request.headers).map(([name, value]) => [`header ${name}`, String(value)] as const),
      ["the target", safeDecode(request.target)] as const,
      ["the body", request.body] as const,
    ];
    const found: string[] = places
      .filter(
        ([, text]) => (secret !== undefined && text.includes(secret)) || (basic !== undefined && text.includes(basic)),
      )
      .map(([where]) => where);
    if (/^\s*basic\s/i.test(fieldOf(request, "authorization") ?? "")) found.unshift("Basic credentials");
    return found.length > 0 ? [`${placeOf(run, number)}: ${[...new Set(found)].join(", ")}`] : [];
  });
  if (leaks.length > 0) return failed(`the secret crossed the wire: ${leaks.join("; ")}`);
  if (secret === undefined) return notRun(`no Basic credentials in ${sent.length} request(s); ${SECRET_UNKNOWN}`);
  return passed(`${sent.length} request(s), the secret in none`);
}

function safeDecode(target: string): string {
  try {
    return `${target} ${decodeURIComponent(target)}`;
  } catch {
    return target;
  }
}

/** CDIG-5: per nonce, nc goes 00000001, 00000002, … in the order sent, in each run of the task. */
export function gradeNonceCount(runs: readonly TaskRun[]): Grade {
  const answers = answersIn(runs).filter(({ answer }) => answer.params.has("qop"));
  if (answers.length === 0)
    return notRun(`the client sent no answer with qop and nc (${withoutAnswer(runs)}): nothing to judge (see CDIG-1)`);
  const seen = new Map<TaskRun, Map<string, number>>();
  for (const sent of answers) {
    const counts = seen.get(sent.run) ?? new Map<string, number>();
    seen.set(sent.run, counts);
    const nonce = sent.answer.params.get("nonce") ?? "";
    const expected = (counts.get(nonce) ?? 0) + 1;
    const nc = sent.answer.params.get("nc") ?? "";
    if (!/^[0-9a-fA-F]{8}$/.test(nc) || Number.parseInt(nc, 16) !== expected)
      return failed(
        `${placeOfAnswer(sent)}: nc ${nc || "(none)"} on use ${expected} of its nonce; expected ${expected.toString(16).padStart(8, "0")}`,
      );
    counts.set(nonce, expected);
  }
  const nonces = [...seen.values()].reduce((sum, counts) => sum + counts.size, 0);
  return passed(`${answers.length} answer(s) over ${nonces} nonce(s), each counted from 00000001`);
}

const QUOTED = ["username", "realm", "nonce", "uri", "response", "cnonce", "opaque"];
const TOKENS = ["algorithm", "qop", "nc"];

/** CDIG-9: the directives RFC 7616 §3.4 quotes are quoted, and the tokens are not, in every answer. */
export function gradeQuoting(runs: readonly TaskRun[]): Grade {
  const answers = answersIn(runs);
  if (answers.length === 0) return notRun(`${withoutAnswer(runs)}: nothing to judge (see CDIG-1)`);
  const problems = answers.flatMap((sent) => {
    const form = (names: string[], quoted: boolean) => names.filter((name) => sent.answer.quoted.get(name) === !quoted);
    const unquoted = form(QUOTED, true);
    const quoted = form(TOKENS, false);
    const place = placeOfAnswer(sent);
    return [
      ...(unquoted.length > 0 ? [{ place, problem: `sends ${unquoted.join(", ")} unquoted` }] : []),
      ...(quoted.length > 0
        ? [{ place, problem: `quotes ${quoted.join(", ")}, which RFC 7616 §3.4 sends as tokens` }]
        : []),
    ];
  });
  if (problems.length > 0) return failed(grouped(problems));
  return passed(`${answers.length} answer(s), each directive quoted as RFC 7616 §3.4 writes it`);
}

/**
 * CDIG-10, on the run where sxd refused the first credentials with 401 and no stale=true (on an
 * offer the client answers): the client sends nothing more computed from the same secret. The
 * control is that the client answered at all, which the refusal itself shows; an answer whose
 * own arithmetic is off still shows a retry, as a later answer for the same user.
 */
export function gradeNoRetryOfWrongCredentials(run: TaskRun, user: ClientUser): Grade {
  const answers = digestAnswers(run.requests);
  const refused = answers.findIndex(
    (a) =>
      a.request.reply.status === 401 &&
      !/stale\s*=\s*"?true/i.test(String(a.request.reply.headers["www-authenticate"] ?? "")),
  );
  const first = answers[refused];
  if (!first) return notRun(`the client sent no credentials that sxd could refuse (${endOf(run)})`);
  const sameSecret = provesSecret(first, user)
    ? (a: (typeof answers)[number]) => provesSecret(a, user)
    : (a: (typeof answers)[number]) => a.params.get("username") === first.params.get("username");
  const again = answers.slice(refused + 1).filter(sameSecret);
  if (again.length > 0)
    return failed(
      `after the 401 without stale=true to request ${first.number}, the client sent credentials from the same secret ${again.length} more time(s) (requests ${again.map((a) => a.number).join(", ")}; ${endOf(run)})`,
    );
  return passed(`after the 401 without stale=true, the client sent no further credentials (${endOf(run)})`);
}
