/**
 * The digest-protected resource of the base server (RFC 7616). Without credentials: 401,
 * one challenge per offered algorithm (SHA-256 first, then MD5) and the XML error body.
 * With good credentials: 200, an XML body and Authentication-Info (rspauth, qop, cnonce,
 * nc, and nextnonce once the nonce is spent or ageing: with one-time nonces, every time).
 * Malformed credentials: 400; wrong ones: 401 with a fresh challenge, stale=true where the
 * digest was right but the nonce is spent.
 *
 * Where the spec leaves a choice open (hashes, qops, opaque, the status of malformed
 * credentials), the route asks the variant's choices (choices.ts).
 *
 * Only hashes every user can be verified with are offered (see verifiableHashes). Behind a
 * proxy that strips a path prefix (the public URL's path), the uri directive names the target
 * as the client sent it, prefix included, and is compared with that.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { formatParams } from "../../lib/auth-params.ts";
import type { NoncePolicy } from "../../lib/digest-math.ts";
import { withoutTrailingSlashes } from "../../lib/uri.ts";
import { escapeXml } from "../../lib/xml.ts";
import type { ReferenceContext } from "../context.ts";
import { errorReply, header, methodNotAllowed, type Reply, type Route, xmlReply } from "../http/reply.ts";
import { type DigestChoices, digestChoices } from "./choices.ts";
import { challenges, type GuardSettings, judge, type Verdict } from "./guard.ts";
import { NonceStore, rulesFor } from "./nonces.ts";
import { digestPolicy } from "./policy.ts";
import { noncesOf } from "./predictable-nonces.ts";
import { demoUsers, parseHtdigest, verifiableHashes } from "./users.ts";

export const REALM = "sxd-reference";
/** The protected resource. */
export const PROTECTED_PATH = "/protected";
/** The policy the bundled reference states in its target description. */
export const DEFAULT_NONCE_POLICY: NoncePolicy = "one-time";
/**
 * What the protected resource takes: reading, and POST, so that a client's digest-post task
 * (a body under auth-int) has a server to talk to when the reference stands in for one.
 */
const PROTECTED_METHODS = ["GET", "HEAD", "POST"];

export { DEMO_USER } from "./users.ts";

export function digestRoutes(context: ReferenceContext): Route {
  const choices = digestChoices(context);
  const settings = guardSettings(context, choices);
  const { policy } = settings;
  const path = PROTECTED_PATH;
  const publicPrefix = memoised(pathPrefix);
  // Logins come in runs of the same user: the body is built once per run, not per request.
  const grantedBody = memoised(
    (username) => `<protected><user>${escapeXml(username)}</user><message>access granted</message></protected>`,
  );

  // The fault's economy: one nonce in every challenge until somebody gets in with it.
  let unused: string | undefined;
  const issue = (): string => {
    if (!policy.reusesNonceUntilUsed) return settings.nonces.issue();
    unused ??= settings.nonces.issue();
    return unused;
  };

  const challenge = (status: number, message: string, stale = false, nonce = issue(), basic = false): Reply => {
    const offered = challenges(settings, () => nonce, stale);
    if (policy.offersBasic || basic) offered.push(`Basic realm="${REALM}"`);
    return policy.challengeHasErrorBody
      ? errorReply(status, message, { "www-authenticate": offered })
      : { status, headers: { "www-authenticate": offered } };
  };

  const answer = (verdict: Verdict): Reply => {
    switch (verdict.kind) {
      case "missing":
        return challenge(policy.challengeStatus, "authentication required: use Digest");
      case "malformed":
        return choices.malformedStatus === 401 && !verdict.uriMismatch
          ? challenge(401, verdict.message)
          : errorReply(400, verdict.message);
      case "refused": {
        const stale = verdict.stale || policy.staleOnEveryRefusal;
        const echoed = policy.echoesRefusedNonce(verdict.algorithm) ? verdict.nonce : undefined;
        return challenge(401, verdict.message, stale, echoed, policy.offersBasicOnRefusal(verdict.algorithm));
      }
      case "granted": {
        unused = undefined;
        // The body first: auth-int's rspauth covers it.
        const body = policy.servesPlainText ? "access granted" : grantedBody(verdict.username);
        const headers: Record<string, string> = policy.sendsAuthenticationInfo(verdict.qop, verdict.algorithm)
          ? { "authentication-info": formatParams(verdict.authenticationInfo(body)) }
          : {};
        return policy.servesPlainText
          ? { status: 200, headers: { "content-type": "text/plain;charset=UTF-8", ...headers }, body }
          : xmlReply(200, body, "application/xml;charset=UTF-8", headers);
      }
    }
  };

  return (request) => {
    if (request.path !== path) return undefined;
    if (!PROTECTED_METHODS.includes(request.method)) throw methodNotAllowed(PROTECTED_METHODS);
    const verdict = judge(settings, {
      method: request.method,
      target: publicPrefix(context.urls.base) + request.target,
      authorization: header(request, "authorization"),
      body: request.body,
    });
    // Only qop=auth-int waits, for the request's body.
    return verdict instanceof Promise ? verdict.then(answer) : answer(verdict);
  };
}

function guardSettings(context: ReferenceContext, choices: DigestChoices): GuardSettings {
  const users = demoUsers(REALM);
  if (context.digestUsersFile !== undefined) {
    const parsed = parseHtdigest(readFileSync(context.digestUsersFile, "utf8"), REALM, users);
    if (!parsed.ok) throw new Error(`${context.digestUsersFile}: ${parsed.error}`);
  }
  const hashes = verifiableHashes(users, context.digestHashes ?? choices.hashes);
  const unverifiable = context.digestHashes?.filter((hash) => !hashes.includes(hash)) ?? [];
  if (unverifiable.length > 0) throw new Error(`some users have no ${unverifiable.join(", ")} hash to verify with`);
  if (hashes.length === 0) throw new Error("no hash is stored for every user: give each user an MD5 line");
  const policy = digestPolicy(context.faults);
  return {
    realm: REALM,
    opaque: choices.sendsOpaque ? randomBytes(16).toString("base64url") : undefined,
    qops: context.digestQops ?? choices.qops,
    hashes,
    users,
    nonces: noncesOf(new NonceStore(rulesFor(context.noncePolicy ?? DEFAULT_NONCE_POLICY)), policy),
    policy,
  };
}

/** The path of a public base URL, without its trailing slash: "" for `http://host`, "/api" for `http://host/api/`. */
export function pathPrefix(baseUrl: string): string {
  if (!URL.canParse(baseUrl)) return "";
  return withoutTrailingSlashes(new URL(baseUrl).pathname);
}

function memoised(compute: (input: string) => string): (input: string) => string {
  let last: { input: string; output: string } | undefined;
  return (input) => {
    if (last?.input !== input) last = { input, output: compute(input) };
    return last.output;
  };
}
