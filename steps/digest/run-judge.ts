/**
 * The digest rules read over every exchange of the run (harness/run/whole-run.ts): a grant to
 * Digest credentials in any scenario, a login of DIG-4 with another algorithm or a replay the
 * server took, is evidence for the rows about grants. DIG-5: every grant carries
 * Authentication-Info. DIG-11: where it does, to a right answer, its rspauth proves the secret
 * and echoes qop, cnonce and nc; auth-int's rspauth hashes the reply's body, which the run keeps
 * only as an excerpt, so those are left to the scenarios that log in with auth-int. So too every
 * challenge of the run, a refusal of another row's flawed MD5 credentials as much as one asked
 * for: DIG-3, no two 401 replies carry the same nonce; DIG-7, no reply of the protected resource
 * asks for the secret in clear text.
 */
import type { TargetDescription } from "../../harness/description/target.ts";
import type { Exchange } from "../../harness/evidence/exchange.ts";
import type { RunCheck, RunExchange, RunFinding } from "../../harness/run/whole-run.ts";
import { parseChallenges, parseCredentials } from "../../lib/auth-params.ts";
import {
  type Formula,
  hashA1,
  hashOf,
  parseAlgorithm,
  type Qop,
  type ResponseInput,
  responseDigest,
} from "../../lib/digest-math.ts";
import { authenticationInfoProblems } from "./digest-client.ts";

/** The checks' names, as the steps attach them. */
export const EVERY_GRANT_CARRIES_INFO = "digest: every grant carries Authentication-Info";
export const EVERY_RSPAUTH_PROVES_THE_SECRET = "digest: every rspauth proves the secret";
export const EVERY_401_NONCE_IS_NEW = "digest: no two 401 replies carry the same nonce";
export const NO_REPLY_ASKS_FOR_THE_SECRET = "digest: no reply asks for the secret in clear text";

/** A 2xx reply to a request with Digest credentials, with the credentials' directives. */
interface Grant {
  at: RunExchange;
  params: ReadonlyMap<string, string>;
  info: string | undefined;
}

/** The directives of the Digest credentials an exchange sent; undefined where it sent none. */
function digestCredentials(exchange: Exchange): ReadonlyMap<string, string> | undefined {
  const authorization = Object.entries(exchange.requestHeaders).find(
    ([name]) => name.toLowerCase() === "authorization",
  )?.[1];
  if (authorization === undefined || !/^\s*digest(\s|$)/i.test(authorization)) return undefined;
  const parsed = parseCredentials(authorization);
  return parsed.ok ? parsed.value.params : new Map();
}

function grantsOf(exchanges: readonly RunExchange[]): Grant[] {
  return exchanges.flatMap((at) => {
    const { response } = at.exchange;
    if (!response || response.status < 200 || response.status > 299) return [];
    const params = digestCredentials(at.exchange);
    if (params === undefined) return [];
    return [{ at, params, info: response.headers["authentication-info"]?.join(", ") }];
  });
}

/** The algorithm each exchange's credentials named ("no credentials" where they sent none). */
function algorithmOf({ params }: { params?: ReadonlyMap<string, string> }): string {
  return params === undefined ? "no credentials" : (params.get("algorithm") ?? "MD5 (none named)");
}

/**
 * "MD5 ×28, SHA-256 ×1": how many of these exchanges each algorithm had, as their credentials
 * named it ("no credentials" where they sent none).
 */
function byAlgorithm(found: readonly { params?: ReadonlyMap<string, string> }[]): string {
  const counts = new Map<string, number>();
  for (const one of found) counts.set(algorithmOf(one), (counts.get(algorithmOf(one)) ?? 0) + 1);
  return [...counts].map(([algorithm, count]) => `${algorithm} ×${count}`).join(", ");
}

/**
 * What was found, said in two lines: which answers it came in reply to ("to MD5, SHA-256"), the
 * same in every run that breaks the rule so, then how many of how many, which depends on how
 * the run's scenarios happened to interleave.
 */
function found(
  what: string,
  breaking: readonly { params?: ReadonlyMap<string, string> }[],
  of: string,
  theFirst?: string,
): string {
  const algorithms = [...new Set(breaking.map(algorithmOf))].sort().join(", ");
  const first = theFirst === undefined ? "" : `, the first: ${theFirst}`;
  return `${what}, to requests with ${algorithms}${first}\n(${breaking.length} of ${of}: ${byAlgorithm(breaking)})`;
}

function finding(expected: string, got: string, found: readonly { at: RunExchange }[]): RunFinding | undefined {
  const [first, ...rest] = found.map((f) => f.at);
  return first ? { expected, got, evidence: [first, ...rest] } : undefined;
}

/**
 * DIG-5: every grant to the user's right credentials carries Authentication-Info. A grant to
 * wrong ones (an empty response, an unknown user) breaks DIG-6 or DIG-12, which blame it; it is
 * no evidence here, whatever it carries. Auth-int answers are left to the scenarios that log in
 * with it: the run keeps only an excerpt of a body their digest covers.
 */
const everyGrantCarriesInfo: RunCheck = (exchanges, target) => {
  const grants = grantsOf(exchanges).filter((grant) => rightAnswer(grant.at.exchange, grant.params, target));
  const without = grants.filter((grant) => grant.info === undefined || grant.info.trim() === "");
  return finding(
    "Authentication-Info on every reply that granted the user's right credentials (qop auth or none)",
    found("grants without it", without, `the run's ${grants.length} grants`),
    without,
  );
};

/** The answer the credentials give, where their response is the digest of the description's secret, in either formula. */
function rightAnswer(exchange: Exchange, params: ReadonlyMap<string, string>, target: TargetDescription) {
  const { username, password } = target.digest;
  const algorithm = parseAlgorithm(params.get("algorithm"));
  const realm = params.get("realm");
  const qop = params.get("qop");
  if (username === undefined || password === undefined || !algorithm || realm === undefined) return undefined;
  if (qop !== undefined && qop !== "auth") return undefined;
  const input: ResponseInput = {
    algorithm,
    ha1: hashA1(hashOf(algorithm), username, realm, password),
    nonce: params.get("nonce") ?? "",
    method: exchange.method,
    uri: params.get("uri") ?? "",
    qop: qop as Qop | undefined,
    nc: params.get("nc"),
    cnonce: params.get("cnonce"),
  };
  const response = params.get("response")?.toLowerCase();
  const formula = (["rfc7616", "spec"] as Formula[]).find((f) => responseDigest({ ...input, formula: f }) === response);
  return formula === undefined ? undefined : { directives: [], input: { ...input, formula } };
}

/** DIG-11: every Authentication-Info on a grant to a right answer proves the secret. */
const everyRspauthProvesTheSecret: RunCheck = (exchanges, target) => {
  const judged = grantsOf(exchanges).flatMap((grant) => {
    const answer = grant.info === undefined ? undefined : rightAnswer(grant.at.exchange, grant.params, target);
    return answer ? [{ grant, problems: authenticationInfoProblems(grant.info, answer, "") }] : [];
  });
  const wrong = judged.filter((j) => j.problems.length > 0);
  return finding(
    "Authentication-Info with rspauth as RFC 7616 §3.5 computes it, and qop, cnonce and nc echoed, on every grant to a right answer with qop auth or none",
    found(
      "grants whose Authentication-Info does not",
      wrong.map((w) => w.grant),
      `the run's ${judged.length} such grants`,
      wrong[0]?.problems.join("; "),
    ),
    wrong.map((w) => w.grant),
  );
};

/** A reply's challenges, each with its scheme and parameters; none where it has no WWW-Authenticate to parse. */
function challengesOf({ response }: Exchange) {
  const field = response?.headers["www-authenticate"];
  const parsed = field === undefined ? undefined : parseChallenges(field);
  return parsed?.ok ? parsed.value : [];
}

/** A challenge that asks for the secret itself: Basic (RFC 7617) sends it merely encoded. */
export const asksForTheSecret = (scheme: string) => scheme.toLowerCase() === "basic";

/** DIG-3: no two 401 replies of the run carry the same nonce (one reply may give it to each of its challenges). */
const every401NonceIsNew: RunCheck = (exchanges) => {
  const seen = new Map<string, RunExchange>();
  let challenged = 0;
  const repeats: Array<{ at: RunExchange; params?: ReadonlyMap<string, string>; first: RunExchange }> = [];
  for (const at of exchanges) {
    if (at.exchange.response?.status !== 401) continue;
    const digest = challengesOf(at.exchange).filter((c) => c.scheme.toLowerCase() === "digest");
    const nonces = new Set(digest.flatMap((c) => c.params.get("nonce") ?? []));
    if (nonces.size === 0) continue;
    challenged++;
    const first = [...nonces].map((nonce) => seen.get(nonce)).find((earlier) => earlier !== undefined);
    if (first) repeats.push({ at, params: digestCredentials(at.exchange), first });
    for (const nonce of nonces) if (!seen.has(nonce)) seen.set(nonce, at);
  }
  const [one] = repeats;
  return finding(
    "a nonce of its own in every 401 reply with a Digest challenge",
    `${found("401 replies that carry a nonce another 401 carried", repeats, `the run's ${challenged}`)}; the first shares it with a 401 of the scenario ${one?.first.scenario}`,
    repeats,
  );
};

/** DIG-7: no reply of the protected resource, in any scenario, asks for the secret in clear text. */
const noReplyAsksForTheSecret: RunCheck = (exchanges, target) => {
  const { path } = target.digest;
  const protectedUrl = path === undefined ? undefined : `${target.baseUrl}${path}`;
  const replies = exchanges.filter((at) => at.exchange.url === protectedUrl && at.exchange.response);
  const asking = replies
    .filter((at) => challengesOf(at.exchange).some((c) => asksForTheSecret(c.scheme)))
    .map((at) => ({ at, params: digestCredentials(at.exchange) }));
  return finding(
    "only challenges that never ask for the secret itself, in every reply of the protected resource",
    found("replies with a Basic challenge", asking, `the run's ${replies.length} replies of the protected resource`),
    asking,
  );
};

export const runChecks: Readonly<Record<string, RunCheck>> = {
  [EVERY_GRANT_CARRIES_INFO]: everyGrantCarriesInfo,
  [EVERY_RSPAUTH_PROVES_THE_SECRET]: everyRspauthProvesTheSecret,
  [EVERY_401_NONCE_IS_NEW]: every401NonceIsNew,
  [NO_REPLY_ASKS_FOR_THE_SECRET]: noReplyAsksForTheSecret,
};
