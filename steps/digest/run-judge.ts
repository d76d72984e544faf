/**
 * The digest rules read over every exchange of the run (harness/run/whole-run.ts): a grant to
 * Digest credentials in any scenario, a login of DIG-4 with another algorithm or a replay the
 * server took, is evidence for the rows about grants. DIG-5: every grant carries
 * Authentication-Info. DIG-11: where it does, to a right answer, its rspauth proves the secret
 * and echoes qop, cnonce and nc; auth-int's rspauth hashes the reply's body, which the run keeps
 * only as an excerpt, so those are left to the scenarios that log in with auth-int.
 */
import type { TargetDescription } from "../../harness/description/target.ts";
import type { Exchange } from "../../harness/evidence/exchange.ts";
import type { RunCheck, RunExchange, RunFinding } from "../../harness/run/whole-run.ts";
import { parseCredentials } from "../../lib/auth-params.ts";
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

/** A 2xx reply to a request with Digest credentials, with the credentials' directives. */
interface Grant {
  at: RunExchange;
  params: ReadonlyMap<string, string>;
  info: string | undefined;
}

function grantsOf(exchanges: readonly RunExchange[]): Grant[] {
  return exchanges.flatMap((at) => {
    const { response, requestHeaders } = at.exchange;
    if (!response || response.status < 200 || response.status > 299) return [];
    const authorization = Object.entries(requestHeaders).find(([name]) => name.toLowerCase() === "authorization")?.[1];
    if (authorization === undefined || !/^\s*digest(\s|$)/i.test(authorization)) return [];
    const parsed = parseCredentials(authorization);
    const info = response.headers["authentication-info"]?.join(", ");
    return [{ at, params: parsed.ok ? parsed.value.params : new Map(), info }];
  });
}

/** "MD5 ×28, SHA-256 ×1": how many of these grants each algorithm had, as the credentials named it. */
function byAlgorithm(grants: readonly Grant[]): string {
  const counts = new Map<string, number>();
  for (const { params } of grants) {
    const algorithm = params.get("algorithm") ?? "MD5 (none named)";
    counts.set(algorithm, (counts.get(algorithm) ?? 0) + 1);
  }
  return [...counts].map(([algorithm, count]) => `${algorithm} ×${count}`).join(", ");
}

function finding(expected: string, got: string, found: readonly Grant[]): RunFinding | undefined {
  const [first, ...rest] = found.map((grant) => grant.at);
  return first ? { expected, got, evidence: [first, ...rest] } : undefined;
}

/** DIG-5: every grant to Digest credentials carries Authentication-Info. */
const everyGrantCarriesInfo: RunCheck = (exchanges) => {
  const grants = grantsOf(exchanges);
  const without = grants.filter((grant) => grant.info === undefined || grant.info.trim() === "");
  return finding(
    `Authentication-Info on every reply that granted Digest credentials (${grants.length} in all)`,
    `${without.length} without it (${byAlgorithm(without)})`,
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
    `Authentication-Info with rspauth as RFC 7616 §3.5 computes it, and qop, cnonce and nc echoed, on every grant to a right answer with qop auth or none (${judged.length} in all)`,
    `${wrong.length} that do not (${byAlgorithm(wrong.map((w) => w.grant))}), the first: ${wrong[0]?.problems.join("; ")}`,
    wrong.map((w) => w.grant),
  );
};

export const runChecks: Readonly<Record<string, RunCheck>> = {
  [EVERY_GRANT_CARRIES_INFO]: everyGrantCarriesInfo,
  [EVERY_RSPAUTH_PROVES_THE_SECRET]: everyRspauthProvesTheSecret,
};
