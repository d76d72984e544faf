/**
 * The digest client rows about each answer a client sends (CDIG-1, CDIG-2, CDIG-4), each a pure
 * function of every run of a task: the plain one and those under the conditions sxd staged,
 * since each answer, wherever it was sent, is one the rule is about. Not answering is not a
 * wrong answer: a client that answers some offers and not others is judged on the answers it
 * sent (which offers it skips is CDIG-7's business). A client that answers no challenge in
 * any run passes nothing: the rows that demand an answer fail, the others are not run. The
 * digests are recomputed with the project's own maths.
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
import { challengesByNonce, type DigestAnswer, digestAnswers } from "../../lib/digest-answers.ts";
import { hashA1, hashOf, parseAlgorithm, type Qop, type ResponseInput, responseDigest } from "../../lib/digest-math.ts";

/** An answer to a challenge, with the run of the task it was sent in. */
export interface SentAnswer {
  run: TaskRun;
  answer: DigestAnswer;
}

/** Every answer sent in the runs, in the order of the runs. */
export function answersIn(runs: readonly TaskRun[]): SentAnswer[] {
  return runs.flatMap((run) => digestAnswers(run.requests).map((answer) => ({ run, answer })));
}

/** Where an answer was sent: "request 2", "request 2 (staged: md5-first)". */
export const placeOfAnswer = ({ run, answer }: SentAnswer) => placeOf(run, answer.number);

/** What the client did where it answered nothing, in words: the runs, their requests, how they ended. */
export function withoutAnswer(runs: readonly TaskRun[]): string {
  const [plain] = runs;
  const sent = runs.reduce((sum, run) => sum + run.requests.length, 0);
  const more = runs.length > 1 ? ` in ${runs.length} runs of the task` : "";
  const ended = plain ? ` (${endOf(plain)})` : "";
  return sent === 0
    ? `the client sent no request${more}${ended}`
    : `the client sent ${sent} request(s)${more}, none with Authorization: Digest${ended}`;
}

/** The answers to judge, or the grade runs without any get (failed for the rows that demand one). */
function answersOr(runs: readonly TaskRun[], demanded: boolean): SentAnswer[] | Grade {
  const answers = answersIn(runs);
  if (answers.length > 0) return answers;
  return demanded
    ? failed(`${withoutAnswer(runs)}: it never answered the challenge`)
    : notRun(`${withoutAnswer(runs)}: nothing to judge (see CDIG-1)`);
}

/** What a row that needs the user's secret says where a recording came without it. */
export const SECRET_UNKNOWN =
  "the user's secret is not known: give --username and --password (or SXD_USERNAME and SXD_PASSWORD) to judge it";

/**
 * Problems said once each, with every place they were seen, since a client tends to make the
 * same mistake in every run: "no cnonce (request 2; request 2 (staged: md5-first))".
 */
export function grouped(found: ReadonlyArray<{ place: string; problem: string }>): string {
  const places = new Map<string, string[]>();
  for (const { place, problem } of found) places.set(problem, [...(places.get(problem) ?? []), place]);
  return [...places].map(([problem, where]) => `${where.join("; ")}: ${problem}`).join(". ");
}

const algorithmOf = (params: ReadonlyMap<string, string>) => (params.get("algorithm") ?? "MD5").toUpperCase();

/**
 * CDIG-1: every answer carries the directives, as challenged: the realm, nonce and algorithm
 * of one challenge, the opaque it came with, a qop it offered.
 */
export function gradeDirectives(runs: readonly TaskRun[], user: ClientUser): Grade {
  const answers = answersOr(runs, true);
  if (!Array.isArray(answers)) return answers;
  const problems = answers.flatMap((sent) =>
    directiveProblems(sent, user).map((problem) => ({ place: placeOfAnswer(sent), problem })),
  );
  if (problems.length > 0) return failed(grouped(problems));
  return passed(`${answers.length} answer(s) to the challenge, each with every directive as challenged`);
}

function directiveProblems({ run, answer }: SentAnswer, user: ClientUser): string[] {
  if (answer.problem) return [`the Authorization header cannot be read: ${answer.problem}`];
  const given = (name: string) => answer.params.get(name);
  const nonce = given("nonce");
  // Where a server offered one nonce in several challenges, the answer is of the one of its algorithm.
  const withNonce = nonce === undefined ? [] : (challengesByNonce(run.requests).get(nonce) ?? []);
  const challenge = withNonce.find((c) => algorithmOf(c.params) === algorithmOf(answer.params)) ?? withNonce.at(-1);
  const problems: string[] = [];
  const absent = ["username", "realm", "nonce", "uri", "response"].filter((name) => given(name) === undefined);
  if (absent.length > 0) problems.push(`no ${absent.join(", ")}`);
  if (user.username !== undefined && given("username") !== undefined && given("username") !== user.username)
    problems.push(`username "${given("username")}" is not the user given (${user.username})`);
  if (nonce !== undefined && !challenge) problems.push(`nonce "${nonce}" is not one sxd challenged with`);
  if (challenge && given("realm") !== undefined && given("realm") !== challenge.params.get("realm"))
    problems.push(`realm "${given("realm")}" is not the challenged "${challenge.params.get("realm")}"`);
  if (challenge && algorithmOf(answer.params) !== algorithmOf(challenge.params))
    problems.push(
      `algorithm ${algorithmOf(answer.params)} with the nonce of the ${algorithmOf(challenge.params)} challenge: the realm, nonce and algorithm must come from one challenge`,
    );
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
  const username = user.username ?? answer.params.get("username");
  if (!algorithm || realm === undefined || username === undefined || user.password === undefined) return undefined;
  const input: ResponseInput = {
    algorithm,
    ha1: hashA1(hashOf(algorithm), username, realm, user.password),
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
export function gradeResponse(runs: readonly TaskRun[], user: ClientUser): Grade {
  const answers = answersOr(runs, true);
  if (!Array.isArray(answers)) return answers;
  if (user.password === undefined) return notRun(SECRET_UNKNOWN);
  for (const sent of answers) {
    const { answer } = sent;
    const algorithm = answer.params.get("algorithm") ?? "MD5 (none named)";
    if (!parseAlgorithm(answer.params.get("algorithm")))
      return failed(`${placeOfAnswer(sent)}: algorithm ${algorithm} is not one RFC 7616 registers`);
    if (!provesSecret(answer, user))
      return failed(
        `${placeOfAnswer(sent)}: response ${answer.params.get("response")} is not the digest of ${answer.params.get("username")}'s secret (RFC 7616 §3.4.1, ${algorithm}, qop ${answer.params.get("qop") ?? "none"}): expected ${expectedResponse(answer, user, answer.request.body)}`,
      );
  }
  const granted = answers.filter((a) => a.answer.request.reply.status < 300).length;
  return passed(`${answers.length} response(s), each the digest of the right secret; ${granted} granted`);
}

/** CDIG-4: an answer with qop=auth-int hashes the body the client sent. */
export function gradeBodyDigest(runs: readonly TaskRun[], user: ClientUser): Grade {
  const answers = answersOr(runs, false);
  if (!Array.isArray(answers)) return answers;
  const authInt = answers.filter((a) => a.answer.params.get("qop") === "auth-int");
  if (authInt.length === 0) {
    const chosen = [...new Set(answers.map((a) => a.answer.params.get("qop") ?? "none"))].join(", ");
    return { status: "not applicable", reason: `the client answered with qop ${chosen}, never auth-int` };
  }
  if (user.password === undefined) return notRun(SECRET_UNKNOWN);
  // Coverage shows only against the client's A1: where no answer is the digest of the user's
  // secret, a response that misses the body may miss it for the secret alone (CDIG-2's failure).
  const secretShown = answers.some(({ answer }) => provesSecret(answer, user));
  let unjudged: SentAnswer | undefined;
  for (const sent of authInt) {
    const { answer } = sent;
    if (provesSecret(answer, user, "sent")) continue;
    const bytes = Buffer.byteLength(answer.request.body);
    if (answer.request.body !== "" && provesSecret(answer, user))
      return failed(
        `${placeOfAnswer(sent)}: with qop=auth-int the response covers an empty body, not the ${bytes} byte(s) sent`,
      );
    if (secretShown)
      return failed(`${placeOfAnswer(sent)}: with qop=auth-int the response does not cover the ${bytes} byte(s) sent`);
    unjudged ??= sent;
  }
  if (unjudged)
    return notRun(
      `${placeOfAnswer(unjudged)}: no answer of the client is the digest of the user's secret, so whether its auth-int response covers the ${Buffer.byteLength(unjudged.answer.request.body)} byte(s) sent cannot be shown (see CDIG-2)`,
    );
  return passed(`${authInt.length} auth-int answer(s), each covering the body sent`);
}
