/**
 * The protected resource that client tasks use (`/client/protected`): GET reads it, POST
 * sends it a body (which auth-int covers). The same digest core as the reference's own
 * protected resource (guard.ts), with nonces any client may reuse, and the conditions that
 * sxd stages for one run of a task (lib/recording.ts): a right answer refused once without
 * stale, or once as stale; MD5 offered first, or alone; qop auth-int alone; a grant whose
 * rspauth proves nothing. Each challenge of a 401 carries a nonce of its own.
 */
import { randomBytes } from "node:crypto";
import { formatParams } from "../../lib/auth-params.ts";
import type { Offer, StagedCondition } from "../../lib/recording.ts";
import { escapeXml } from "../../lib/xml.ts";
import { challenges, type GuardSettings, judge } from "../digest/guard.ts";
import { NonceStore, rulesFor } from "../digest/nonces.ts";
import { digestPolicy } from "../digest/policy.ts";
import { REALM } from "../digest/routes.ts";
import { demoUsers } from "../digest/users.ts";
import { errorReply, header, methodNotAllowed, type Reply, type Route, xmlReply } from "../http/reply.ts";

export const CLIENT_PROTECTED_PATH = "/client/protected";

/** The condition staged for the run of a task going on now, on its offer; `spent` once it has acted. */
export interface Staged {
  condition?: StagedCondition;
  offer?: Offer;
  spent: boolean;
}

/** Whether the condition is staged and has not acted yet in this run; if so, it acts now (true once). */
export type Once = (condition: StagedCondition) => boolean;

/** The stage as the route reads it: a condition acting once, or one holding for the whole run. */
export interface Stage {
  once: Once;
  staged(condition: StagedCondition): boolean;
}

export function clientDigestRoute({ once, staged }: Stage): Route {
  const standard: GuardSettings = {
    realm: REALM,
    opaque: randomBytes(16).toString("base64url"),
    qops: ["auth", "auth-int"],
    hashes: ["SHA-256", "MD5"],
    users: demoUsers(REALM),
    nonces: new NonceStore(rulesFor("unlimited")),
    policy: digestPolicy(new Set()),
  };
  // What is offered, staged for a whole run: the algorithms in the other order, or MD5 alone;
  // qop auth-int alone.
  const offerOf = (): GuardSettings => ({
    ...standard,
    hashes: staged("md5-only") ? ["MD5"] : staged("md5-first") ? ["MD5", "SHA-256"] : standard.hashes,
    qops: staged("auth-int-only") ? ["auth-int"] : standard.qops,
  });

  return async (request) => {
    if (request.path !== CLIENT_PROTECTED_PATH) return undefined;
    if (request.method !== "GET" && request.method !== "POST") throw methodNotAllowed(["GET", "POST"]);
    const settings = offerOf();
    // A nonce per challenge: an answer then shows which challenge it took its nonce from.
    const challenge = (message: string, stale = false): Reply =>
      errorReply(401, message, { "www-authenticate": challenges(settings, () => settings.nonces.issue(), stale) });
    const authorization = header(request, "authorization");
    const verdict = await judge(settings, {
      method: request.method,
      target: request.target,
      authorization,
      body: request.body,
    });
    if (verdict.kind === "missing") return challenge("authentication required: use Digest");
    if (once("wrong-credentials")) {
      return challenge("staged by sxd: these credentials are refused (no stale)");
    }
    if (verdict.kind === "malformed") return errorReply(400, verdict.message);
    if (verdict.kind === "refused") return challenge(verdict.message, verdict.stale);
    if (once("stale-nonce")) {
      return challenge("staged by sxd: this nonce is stale", true);
    }
    const body = (await request.body()).toString("utf8");
    const document = `<protected><user>${escapeXml(verdict.username)}</user><method>${request.method}</method><received>${escapeXml(body)}</received></protected>`;
    // Staged: an rspauth that proves nothing (the right length, every digit flipped).
    const granted = verdict.authenticationInfo(document);
    const info = once("wrong-rspauth")
      ? granted.map((d) => (d.name === "rspauth" ? { ...d, value: flipped(d.value) } : d))
      : granted;
    return xmlReply(200, document, "application/xml;charset=UTF-8", { "authentication-info": formatParams(info) });
  };
}

function flipped(hex: string): string {
  return hex.replace(/[0-9a-f]/g, (digit) => (15 - Number.parseInt(digit, 16)).toString(16));
}
