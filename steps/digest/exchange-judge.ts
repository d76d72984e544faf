/**
 * The digest rows a server broke in an exchange sxd saw between it and a real client
 * (`sxd interop`), judged from its replies alone, each digest recomputed from the description's
 * credentials: a challenge that is missing or malformed (DIG-1, DIG-14), its body (DIG-2), a
 * right answer refused (DIG-4: one that broke no client MUST row, see exchange-cause.ts), a wrong
 * one granted (DIG-6), a grant without Authentication-Info (DIG-5) or with an rspauth that does
 * not prove the secret (DIG-11). Where a failed task stopped, and so its blame: exchange-cause.ts.
 */

import { stated } from "../../harness/description/target.ts";
import type { BrokenRow } from "../../harness/evidence/interop-document.ts";
import type { Excused, RowBreak, ServerExchange, SidesBroken, Stop } from "../../harness/interop/judging.ts";
import { parseChallenges } from "../../lib/auth-params.ts";
import { bodyBytes } from "../../lib/body.ts";
import { challengesByNonce, digestAnswers, fieldOf, issuedChallenges } from "../../lib/digest-answers.ts";
import { hashA1, hashOf, parseAlgorithm, type Qop, rspauthDigest } from "../../lib/digest-math.ts";
import { mediaTypeMatches } from "../../lib/media-type.ts";
import type { RecordedRequest } from "../../lib/recording.ts";
import { childElement, parseXml } from "../../lib/xml.ts";
import { challengeFormProblems } from "./checks.ts";
import { provesSecret } from "./client-grades.ts";
import { digestStop, rightAnswers } from "./exchange-cause.ts";

const granted = (request: RecordedRequest) => request.reply.status >= 200 && request.reply.status < 300;
const place = (requests: readonly RecordedRequest[], request: RecordedRequest) =>
  `request ${requests.indexOf(request) + 1} (${request.method} ${request.target})`;

export function judgeServerExchange({ task, requests, target }: ServerExchange): RowBreak[] {
  if (task !== "digest-get" && task !== "digest-post") return [];
  const { username, password, path } = stated(target, "digest");
  const user = { username, password };
  const protectedOnes = requests.filter((request) => request.target.split("?")[0] === path);
  const broken: RowBreak[] = [];
  // DIG-1's request is a GET: what a server answers a POST without credentials (405, where the
  // resource takes no POST) is no challenge it failed to give. A challenge it does give, to any
  // method, is judged by its form and body.
  for (const request of protectedOnes.filter((r) => fieldOf(r, "authorization") === undefined)) {
    const where = place(requests, request);
    const field = request.reply.headers["www-authenticate"];
    if (["GET", "HEAD"].includes(request.method)) {
      const parsed = field === undefined ? undefined : parseChallenges(field);
      const digest = parsed?.ok ? parsed.value.filter((c) => c.scheme.toLowerCase() === "digest") : [];
      const missing =
        digest.length === 0
          ? ["Digest challenge"]
          : ["realm", "nonce", "qop"].filter((n) => !digest.every((c) => c.params.has(n)));
      if (request.reply.status !== 401 || missing.length > 0)
        broken.push({
          id: "DIG-1",
          reason: `${where} without credentials: status ${request.reply.status}${missing.length ? `, no ${missing.join(", ")}` : ""}`,
        });
    }
    if (field !== undefined) {
      const form = challengeFormProblems(field);
      if (form.length > 0) broken.push({ id: "DIG-14", reason: `${where}: ${form.join("; ")}` });
    }
    if (request.reply.status === 401) {
      const body = errorBodyProblem(request);
      if (body) broken.push({ id: "DIG-2", reason: `${where}: ${body}` });
    }
  }
  const issued = issuedChallenges(requests);
  const rightOnes = rightAnswers(requests, user);
  for (const { request, params, problem } of digestAnswers(requests)) {
    if (problem) continue;
    const where = place(requests, request);
    const nonce = params.get("nonce");
    // The secret, to a nonce the server issued: what DIG-6 and DIG-11 judge a grant by.
    const right =
      nonce !== undefined &&
      issued.has(nonce) &&
      provesSecret({ number: 0, request, params, quoted: new Map() }, user, "sent");
    if (rightOnes.has(request) && (request.reply.status === 401 || request.reply.status === 403))
      broken.push({
        id: "DIG-4",
        reason: `${where}: a right answer (the digest of ${user.username}'s secret, to a nonce the server issued, with its challenge's algorithm and qop and the next nc) was refused with ${request.reply.status}`,
      });
    if (!right && granted(request) && !provesSecret({ number: 0, request, params, quoted: new Map() }, user))
      broken.push({
        id: "DIG-6",
        reason: `${where}: an answer that is not the digest of the secret was granted (${request.reply.status})`,
      });
    if (!granted(request)) continue;
    const info = headerText(request.reply.headers["authentication-info"]);
    if (info === undefined) {
      broken.push({ id: "DIG-5", reason: `${where}: granted (${request.reply.status}) without Authentication-Info` });
      continue;
    }
    const rspauth = /rspauth="?([0-9a-fA-F]+)"?/.exec(info)?.[1]?.toLowerCase();
    if (right && rspauth !== undefined && !expectedRspauth(params, request, user).includes(rspauth))
      broken.push({ id: "DIG-11", reason: `${where}: rspauth ${rspauth} does not prove the secret (RFC 7616 §3.5)` });
  }
  return broken;
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(", ") : value;
}

/** The rspauth of an answer in either formula a server may use, on the reply it came with. */
function expectedRspauth(
  params: ReadonlyMap<string, string>,
  request: RecordedRequest,
  user: { username: string; password: string },
): string[] {
  const algorithm = parseAlgorithm(params.get("algorithm"));
  const realm = params.get("realm");
  if (!algorithm || realm === undefined) return [];
  const input = {
    algorithm,
    ha1: hashA1(hashOf(algorithm), user.username, realm, user.password),
    nonce: params.get("nonce") ?? "",
    method: request.method,
    uri: params.get("uri") ?? "",
    qop: params.get("qop") as Qop | undefined,
    nc: params.get("nc"),
    cnonce: params.get("cnonce"),
  };
  // auth-int's rspauth covers the reply's body, not the request's (RFC 2617 §3.2.3).
  const replyBody = bodyBytes(request.reply);
  return [rspauthDigest(input, replyBody), rspauthDigest({ ...input, formula: "spec" }, replyBody)];
}

/** DIG-2: the 401's body is application/xml;charset=UTF-8 with a root error element holding a message. */
function errorBodyProblem(request: RecordedRequest): string | undefined {
  const type = headerText(request.reply.headers["content-type"]);
  if (!mediaTypeMatches(type, "application/xml;charset=UTF-8"))
    return `the 401 body is ${type ?? "without Content-Type"}, not application/xml;charset=UTF-8`;
  const parsed = parseXml(request.reply.body);
  if (!parsed.ok) return `the 401 body is not XML: ${parsed.error}`;
  if (parsed.root.local !== "error") return `the 401 body's root element is ${parsed.root.local}, not error`;
  const message = childElement(parsed.root, parsed.root.ns, "message");
  if (!message || message.text.trim() === "") return "the 401 body's error element has no non-empty message";
  return undefined;
}

/**
 * The client rows about answering a challenge: how it answered (CDIG-1, CDIG-2, CDIG-4, CDIG-5,
 * CDIG-9), which offer it took (CDIG-7), what it did after a refusal (CDIG-10). A secret sent
 * in clear (CDIG-3) is the client's whatever the server did.
 */
const ANSWERING = ["CDIG-1", "CDIG-2", "CDIG-4", "CDIG-5", "CDIG-7", "CDIG-9", "CDIG-10"];

/** The server rows about the challenge itself: a client may not be able to answer one that breaks them. */
const CHALLENGE_ROWS = ["DIG-1", "DIG-14"];

/**
 * Where a client sent no Digest answer in a digest task because there was nothing it could
 * answer: the server issued no Digest challenge, or its challenges broke a row, or it offered
 * no MD5 (the one algorithm the spec has every client compute). Then the rows about answering
 * say nothing of the client.
 */
export function excusedClientRows(
  { task, requests }: ServerExchange,
  serverRows: readonly BrokenRow[],
): Excused | undefined {
  if ((task !== "digest-get" && task !== "digest-post") || digestAnswers(requests).length > 0) return undefined;
  const excused = (why: string) => ({
    rows: ANSWERING,
    why: `${why}: the client's rows about answering are not counted`,
  });
  const challenges = [...challengesByNonce(requests).values()].flat();
  if (challenges.length === 0) return excused("the server issued no Digest challenge");
  const challengeRows = serverRows.filter((row) => CHALLENGE_ROWS.includes(row.id));
  if (challengeRows.length > 0)
    return excused(
      `the client answered none of the server's challenges, which broke ${challengeRows.map((row) => row.id).join(", ")}`,
    );
  const offered = [...new Set(challenges.map((c) => (c.params.get("algorithm") ?? "MD5").toUpperCase()))];
  if (!offered.includes("MD5"))
    return excused(
      `the server offered ${offered.join(", ")} and no MD5 (the algorithm the spec has every client compute), and the client answered none: no algorithm in common, which no row of either side demands`,
    );
  return undefined;
}

/** Where a failed digest task stopped, and the rows whose breach there explains it (exchange-cause.ts). */
export function stopOf({ task, requests, target }: ServerExchange, broken: SidesBroken): Stop | undefined {
  if (task !== "digest-get" && task !== "digest-post") return undefined;
  return digestStop(requests, stated(target, "digest").path, broken);
}
