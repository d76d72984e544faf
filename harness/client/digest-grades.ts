/**
 * The digest client rows (CDIG), each a pure function of one recorded run of a task: what
 * the client sent and what sxd's servers answered. A client that sends nothing passes
 * nothing: the rows about its answers fail where it never answered the challenge, and the
 * others are not run. The digests are recomputed with the project's own maths.
 */
import { hashA1, hashOf, parseAlgorithm, type Qop, type ResponseInput, responseDigest } from "../../lib/digest-math.ts";
import { type DigestAnswer, digestAnswers, issuedChallenges } from "./credentials.ts";
import { type ClientUser, endOf, failed, type Grade, notRun, passed, type TaskRun } from "./evidence.ts";

/** The answers to judge, or the grade a run without any gets (failed for the rows that demand one). */
function answersOr(run: TaskRun, demanded: boolean): DigestAnswer[] | Grade {
  const answers = digestAnswers(run.requests);
  if (answers.length > 0) return answers;
  const what =
    run.requests.length === 0
      ? `the client sent no request (${endOf(run)})`
      : `the client sent ${run.requests.length} request(s), none with Authorization: Digest (${endOf(run)})`;
  return demanded
    ? failed(`${what}: it never answered the challenge`)
    : notRun(`${what}: nothing to judge (see CDIG-1)`);
}

const listed = (items: readonly string[]) => items.join("; ");

/** CDIG-1: every answer carries the directives, as challenged. */
export function gradeDirectives(run: TaskRun, user: ClientUser): Grade {
  const answers = answersOr(run, true);
  if (!Array.isArray(answers)) return answers;
  const issued = issuedChallenges(run.requests);
  const problems = answers.flatMap((answer) =>
    directiveProblems(answer, issued, user).map((p) => `request ${answer.number}: ${p}`),
  );
  if (problems.length > 0) return failed(listed(problems));
  return passed(`${answers.length} answer(s) to the challenge, each with every directive as challenged`);
}

function directiveProblems(
  answer: DigestAnswer,
  issued: ReturnType<typeof issuedChallenges>,
  user: ClientUser,
): string[] {
  if (answer.problem) return [`the Authorization header cannot be read: ${answer.problem}`];
  const given = (name: string) => answer.params.get(name);
  const nonce = given("nonce");
  const challenge = nonce === undefined ? undefined : issued.get(nonce);
  const problems: string[] = [];
  const absent = ["username", "realm", "nonce", "uri", "response"].filter((name) => given(name) === undefined);
  if (absent.length > 0) problems.push(`no ${absent.join(", ")}`);
  if (given("username") !== undefined && given("username") !== user.username)
    problems.push(`username "${given("username")}" is not the user given (${user.username})`);
  if (nonce !== undefined && !challenge) problems.push(`nonce "${nonce}" is not one sxd challenged with`);
  if (challenge && given("realm") !== undefined && given("realm") !== challenge.params.get("realm"))
    problems.push(`realm "${given("realm")}" is not the challenged "${challenge.params.get("realm")}"`);
  if (given("uri") !== undefined && given("uri") !== answer.request.target)
    problems.push(`uri "${given("uri")}" is not the request target ${answer.request.target}`);
  const offered = (challenge?.params.get("qop") ?? "")
    .split(",")
    .map((q) => q.trim())
    .filter(Boolean);
  if (offered.length > 0) problems.push(...qopProblems(answer, offered));
  const opaque = challenge?.params.get("opaque");
  if (opaque !== undefined && given("opaque") !== opaque)
    problems.push(
      given("opaque") === undefined ? "no opaque, though the challenge had one" : "opaque is not the challenged one",
    );
  return problems;
}

function qopProblems(answer: DigestAnswer, offered: string[]): string[] {
  const qop = answer.params.get("qop");
  if (qop === undefined)
    return [`no qop, cnonce or nc: the RFC 2069 form, though the challenge offered qop ${offered.join(", ")}`];
  const problems = offered.includes(qop) ? [] : [`qop ${qop} was not offered (${offered.join(", ")})`];
  if (answer.params.get("cnonce") === undefined) problems.push("no cnonce");
  const nc = answer.params.get("nc");
  if (nc === undefined || !/^[0-9a-fA-F]{8}$/.test(nc))
    problems.push(nc === undefined ? "no nc" : `nc "${nc}" is not eight hexadecimal digits`);
  return problems;
}

/** The response directive as RFC 7616 §3.4.1 computes it from the user's secret, for this answer (and this body). */
function expectedResponse(answer: DigestAnswer, user: ClientUser, body: string | undefined): string | undefined {
  const algorithm = parseAlgorithm(answer.params.get("algorithm"));
  const realm = answer.params.get("realm");
  if (!algorithm || realm === undefined) return undefined;
  const input: ResponseInput = {
    algorithm,
    ha1: hashA1(hashOf(algorithm), user.username, realm, user.password),
    nonce: answer.params.get("nonce") ?? "",
    method: answer.request.method,
    uri: answer.params.get("uri") ?? "",
    qop: answer.params.get("qop") as Qop | undefined,
    nc: answer.params.get("nc"),
    cnonce: answer.params.get("cnonce"),
    body,
  };
  return responseDigest(input);
}

/** Whether the answer's response proves the user's secret: with the body sent, or (for auth-int) any body. */
export function provesSecret(answer: DigestAnswer, user: ClientUser, body: "sent" | "any" = "any"): boolean {
  const response = answer.params.get("response")?.toLowerCase();
  const bodies =
    answer.params.get("qop") === "auth-int" && body === "any" ? [answer.request.body, ""] : [answer.request.body];
  return bodies.some((b) => response !== undefined && response === expectedResponse(answer, user, b));
}

/** CDIG-2: the response is the digest of the right credentials. */
export function gradeResponse(run: TaskRun, user: ClientUser): Grade {
  const answers = answersOr(run, true);
  if (!Array.isArray(answers)) return answers;
  for (const answer of answers) {
    const algorithm = answer.params.get("algorithm") ?? "MD5 (none named)";
    if (!parseAlgorithm(answer.params.get("algorithm")))
      return failed(`request ${answer.number}: algorithm ${algorithm} is not one RFC 7616 registers`);
    if (!provesSecret(answer, user))
      return failed(
        `request ${answer.number}: response ${answer.params.get("response")} is not the digest of ${user.username}'s secret (RFC 7616 §3.4.1, ${algorithm}, qop ${answer.params.get("qop") ?? "none"}): expected ${expectedResponse(answer, user, answer.request.body)}`,
      );
  }
  const granted = answers.filter((a) => a.request.reply.status < 300).length;
  return passed(`${answers.length} response(s), each the digest of the right secret; ${granted} granted`);
}

/** CDIG-4: an answer with qop=auth-int hashes the body the client sent. */
export function gradeBodyDigest(run: TaskRun, user: ClientUser): Grade {
  const answers = answersOr(run, false);
  if (!Array.isArray(answers)) return answers;
  const authInt = answers.filter((a) => a.params.get("qop") === "auth-int");
  if (authInt.length === 0) {
    const chosen = [...new Set(answers.map((a) => a.params.get("qop") ?? "none"))].join(", ");
    return { status: "not applicable", reason: `the client answered with qop ${chosen}, not auth-int` };
  }
  for (const answer of authInt) {
    if (provesSecret(answer, user, "sent")) continue;
    const emptyBody = answer.request.body !== "" && provesSecret(answer, user);
    return failed(
      `request ${answer.number}: with qop=auth-int the response ${emptyBody ? "covers an empty body, not" : "does not cover"} the ${Buffer.byteLength(answer.request.body)} byte(s) sent`,
    );
  }
  return passed(`${authInt.length} auth-int answer(s), each covering the body sent`);
}
