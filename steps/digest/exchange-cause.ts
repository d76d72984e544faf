/**
 * Why a digest task failed between a real client and a real server (`sxd interop`): where the
 * exchange stopped, and the breaches there that explain it. Other breaches (a 401's HTML body,
 * DIG-2; a quoted algorithm the server read anyway, CDIG-9) are reported, never blamed.
 *
 * - no challenge: the request without credentials got no 401 with a Digest challenge (DIG-1);
 * - no answer to the challenge: the challenge broke its form (DIG-1, DIG-14), or the client
 *   answered none of the algorithms offered that it supports (CDIG-7, CDIG-1);
 * - an answer refused: the answer broke a client row about answering (CDIG-1, CDIG-2, CDIG-4,
 *   CDIG-5, CDIG-7), or the server refused a right one (DIG-4, which only a right answer breaks);
 * - a grant the client did not accept: the grant's Authentication-Info (DIG-5, DIG-11), or the
 *   client's check of it (CDIG-8).
 *
 * A right answer is one that breaks no client MUST row: the digest of the secret, to a nonce
 * the server issued, with the algorithm of a challenge that carried that nonce, a qop that
 * challenge offered (none where it offered none), the request's own target as uri, and the
 * nonce count CDIG-5 asks for (00000001 on a nonce's first use, one more on each reuse).
 */
import { brokenAmong, type SidesBroken, type Stop } from "../../harness/interop/judging.ts";
import type { AuthItem } from "../../lib/auth-params.ts";
import { challengesByNonce, type DigestAnswer, digestAnswers, fieldOf } from "../../lib/digest-answers.ts";
import { parseAlgorithm } from "../../lib/digest-math.ts";
import type { RecordedRequest } from "../../lib/recording.ts";
import { provesSecret } from "./client-grades.ts";

const granted = (request: RecordedRequest) => request.reply.status >= 200 && request.reply.status < 300;

/** The rows whose breach stops an exchange at each point: the challenge, the answer, the grant. */
const AT_CHALLENGE = ["DIG-1", "DIG-14"];
const AT_NO_ANSWER = ["CDIG-1", "CDIG-7"];
const AT_ANSWER = ["CDIG-1", "CDIG-2", "CDIG-4", "CDIG-5", "CDIG-7", "DIG-4"];
const AT_GRANT = ["DIG-5", "DIG-11", "CDIG-8"];

/** The answers of the exchange that break no client MUST row (see the module's comment). */
export function rightAnswers(
  requests: readonly RecordedRequest[],
  user: { username: string; password: string },
): Set<RecordedRequest> {
  const challenges = challengesByNonce(requests);
  const counts = new Map<string, number>();
  const right = new Set<RecordedRequest>();
  for (const answer of digestAnswers(requests)) {
    if (answer.problem) continue;
    const nonce = answer.params.get("nonce") ?? "";
    const expectedNc = (counts.get(nonce) ?? 0) + 1;
    const nc = answer.params.get("nc");
    if (nc !== undefined && /^[0-9a-f]{8}$/i.test(nc)) counts.set(nonce, Number.parseInt(nc, 16));
    const challenge = challengeAnswered(answer, challenges.get(nonce) ?? []);
    if (
      challenge !== undefined &&
      qopAsOffered(answer, challenge, nc, expectedNc) &&
      answer.params.get("uri") === answer.request.target &&
      provesSecret(answer, user, "sent")
    )
      right.add(answer.request);
  }
  return right;
}

/** The challenge, among those with the answer's nonce, whose algorithm the answer names. */
function challengeAnswered(answer: DigestAnswer, offered: readonly AuthItem[]): AuthItem | undefined {
  const named = parseAlgorithm(answer.params.get("algorithm"));
  if (named === undefined) return undefined;
  return offered.find((challenge) => parseAlgorithm(challenge.params.get("algorithm")) === named);
}

/** A qop the challenge offered with the nonce count CDIG-5 asks for, or no qop where none was offered. */
function qopAsOffered(answer: DigestAnswer, challenge: AuthItem, nc: string | undefined, expectedNc: number): boolean {
  const qop = answer.params.get("qop");
  const offered = challenge.params
    .get("qop")
    ?.split(",")
    .map((value) => value.trim().toLowerCase());
  if (qop === undefined) return offered === undefined;
  return offered?.includes(qop.toLowerCase()) === true && nc === expectedNc.toString(16).padStart(8, "0");
}

/** Where a failed digest task's exchange stopped, and the rows that explain it. */
export function digestStop(requests: readonly RecordedRequest[], path: string, broken: SidesBroken): Stop {
  const explaining = brokenAmong(broken);
  const answers = digestAnswers(requests).filter((answer) => answer.request.target.split("?")[0] === path);
  if (answers.some((answer) => granted(answer.request)))
    return { at: "a grant the client did not accept", explaining: explaining(AT_GRANT) };
  if (answers.length > 0) return { at: "an answer refused", explaining: explaining(AT_ANSWER) };
  if (challengesByNonce(requests).size > 0)
    return { at: "no answer to the challenge", explaining: explaining([...AT_CHALLENGE, ...AT_NO_ANSWER]) };
  const asked = requests.some(
    (request) => request.target.split("?")[0] === path && fieldOf(request, "authorization") === undefined,
  );
  return {
    at: asked ? "no challenge" : "no request for the protected resource",
    explaining: explaining(AT_CHALLENGE),
  };
}
