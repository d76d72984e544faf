/**
 * The digest client rows about how a client keeps its secret and its counts (CDIG-3, CDIG-5,
 * CDIG-9, CDIG-10): pure functions of recorded runs, like digest-grades.ts.
 */
import { digestAnswers, fieldOf } from "./credentials.ts";
import { provesSecret } from "./digest-grades.ts";
import { type ClientUser, endOf, failed, type Grade, notRun, passed, type TaskRun } from "./evidence.ts";

/** CDIG-3: the secret is in no header, target or body the client sent. */
export function gradeSecretKept(run: TaskRun, user: ClientUser): Grade {
  const withCredentials = run.requests.filter((r) => fieldOf(r, "authorization") !== undefined);
  if (withCredentials.length === 0) return notRun(`the client sent no credentials (${endOf(run)}): nothing to judge`);
  const basic = Buffer.from(`${user.username}:${user.password}`).toString("base64");
  const leaks = run.requests.flatMap((request, index) => {
    const places = [
      ...Object.entries(request.headers).map(([name, value]) => [`header ${name}`, String(value)] as const),
      ["the target", safeDecode(request.target)] as const,
      ["the body", request.body] as const,
    ];
    const found: string[] = places
      .filter(([, text]) => text.includes(user.password) || text.includes(basic))
      .map(([where]) => where);
    if (/^\s*basic\s/i.test(fieldOf(request, "authorization") ?? "")) found.unshift("Basic credentials");
    return found.length > 0 ? [`request ${index + 1}: ${[...new Set(found)].join(", ")}`] : [];
  });
  if (leaks.length > 0) return failed(`the secret crossed the wire: ${leaks.join("; ")}`);
  return passed(`${run.requests.length} request(s), the secret in none`);
}

function safeDecode(target: string): string {
  try {
    return `${target} ${decodeURIComponent(target)}`;
  } catch {
    return target;
  }
}

/** CDIG-5: per nonce, nc goes 00000001, 00000002, … in the order sent. */
export function gradeNonceCount(run: TaskRun): Grade {
  const answers = digestAnswers(run.requests).filter((a) => a.params.has("qop"));
  if (answers.length === 0)
    return notRun(`the client sent no answer with qop and nc (${endOf(run)}): nothing to judge (see CDIG-1)`);
  const seen = new Map<string, number>();
  for (const answer of answers) {
    const nonce = answer.params.get("nonce") ?? "";
    const expected = (seen.get(nonce) ?? 0) + 1;
    const nc = answer.params.get("nc") ?? "";
    if (!/^[0-9a-fA-F]{8}$/.test(nc) || Number.parseInt(nc, 16) !== expected)
      return failed(
        `request ${answer.number}: nc ${nc || "(none)"} on use ${expected} of its nonce; expected ${expected.toString(16).padStart(8, "0")}`,
      );
    seen.set(nonce, expected);
  }
  return passed(`${answers.length} answer(s) over ${seen.size} nonce(s), each counted from 00000001`);
}

const QUOTED = ["username", "realm", "nonce", "uri", "response", "cnonce", "opaque"];
const TOKENS = ["algorithm", "qop", "nc"];

/** CDIG-9: the directives RFC 7616 §3.4 quotes are quoted, and the tokens are not. */
export function gradeQuoting(run: TaskRun): Grade {
  const answers = digestAnswers(run.requests);
  if (answers.length === 0)
    return notRun(`the client sent no Digest answer (${endOf(run)}): nothing to judge (see CDIG-1)`);
  const problems = answers.flatMap((answer) => {
    const form = (names: string[], quoted: boolean) => names.filter((name) => answer.quoted.get(name) === !quoted);
    const unquoted = form(QUOTED, true);
    const quoted = form(TOKENS, false);
    return [
      ...(unquoted.length > 0 ? [`request ${answer.number} sends ${unquoted.join(", ")} unquoted`] : []),
      ...(quoted.length > 0
        ? [`request ${answer.number} quotes ${quoted.join(", ")}, which RFC 7616 §3.4 sends as tokens`]
        : []),
    ];
  });
  if (problems.length > 0) return failed(problems.join("; "));
  return passed(`${answers.length} answer(s), each directive quoted as RFC 7616 §3.4 writes it`);
}

/**
 * CDIG-10, on the run where sxd refused the first credentials with 401 and no stale=true: the
 * client sends nothing more computed from the same secret. Its control is the plain run of the
 * same task, which must have got in.
 */
export function gradeNoRetryOfWrongCredentials(run: TaskRun, control: TaskRun, user: ClientUser): Grade {
  const gotIn = digestAnswers(control.requests).some((a) => a.request.reply.status < 300 && provesSecret(a, user));
  if (!gotIn) return notRun(`the same task without the refusal did not get in (${endOf(control)}): see CDIG-2`);
  const answers = digestAnswers(run.requests);
  const refused = answers.findIndex(
    (a) =>
      a.request.reply.status === 401 &&
      !/stale\s*=\s*"?true/i.test(String(a.request.reply.headers["www-authenticate"] ?? "")),
  );
  if (refused < 0) return notRun(`the client sent no credentials that sxd could refuse (${endOf(run)})`);
  const again = answers.slice(refused + 1).filter((a) => provesSecret(a, user));
  if (again.length > 0)
    return failed(
      `after the 401 without stale=true to request ${answers[refused]?.number}, the client sent credentials from the same secret ${again.length} more time(s) (requests ${again.map((a) => a.number).join(", ")}; ${endOf(run)})`,
    );
  return passed(`after the 401 without stale=true, the client sent no further credentials (${endOf(run)})`);
}
