/**
 * Digest servers that behave like real ones (issue 14), built on the correct server of
 * digest-server.ts: most with one bug seen in widely deployed servers and libraries, some
 * with a choice RFC 7616 allows that the suite must cope with (SHA-512-256 only, userhash,
 * nonces in a session cookie, short-lived nonces). Each entry says what the server does.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { type Algorithm, type ResponseInput, responseDigest, rspauthDigest } from "../../lib/digest-math.ts";
import { type NonceRecord, type Nonces, type Quirks, REALM, RFC7616, rememberedNonces } from "./digest-server.ts";

export interface DigestTarget {
  /** What the server does, as its operator would find out. */
  behaviour: string;
  quirks: () => Partial<Quirks>;
}

const TIMESTAMP_DIGITS = 12;

/**
 * Nonces made of the time they were issued (12 hex digits) and 20 random hex digits. The
 * server reads back only the time: any nonce of that shape from the last minute passes.
 */
function timestampNonces(): Nonces {
  const seen = new Map<string, NonceRecord>();
  return {
    issue: () => `${Date.now().toString(16).padStart(TIMESTAMP_DIGITS, "0")}${randomBytes(10).toString("hex")}`,
    recall(nonce) {
      if (!/^[0-9a-f]{32}$/.test(nonce)) return undefined;
      const issuedAt = Number.parseInt(nonce.slice(0, TIMESTAMP_DIGITS), 16);
      if (Math.abs(Date.now() - issuedAt) > 60_000) return undefined;
      let record = seen.get(nonce);
      if (!record) {
        record = { issuedAt, lastNc: 0 };
        seen.set(nonce, record);
      }
      return record;
    },
  };
}

const SESSION_COOKIE = "sid";

/**
 * A popular library's default: the nonce lives in the session, whose id goes out in a
 * cookie set on the 401. An answer without that cookie has no session, so no nonce.
 */
function sessionNonces(): Nonces {
  const inner = rememberedNonces();
  const sessions = new Map<string, string>();
  const sessionOf = (request: IncomingMessage) =>
    new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=([^;]+)`).exec(request.headers.cookie ?? "")?.[1];
  return {
    issue(request: IncomingMessage, response: ServerResponse, stale: boolean) {
      const sid = sessionOf(request) ?? randomBytes(12).toString("hex");
      const nonce = inner.issue(request, response, stale);
      sessions.set(sid, nonce);
      response.setHeader("set-cookie", `${SESSION_COOKIE}=${sid}; Path=/; HttpOnly`);
      return nonce;
    },
    recall(nonce, request) {
      const sid = sessionOf(request);
      return sid !== undefined && sessions.get(sid) === nonce ? inner.recall(nonce, request) : undefined;
    },
  };
}

export const NONCE_LIFETIME_SECONDS = 2;

/**
 * Under load, a nonce can outlive its lifetime between the 401 and the answer. Here every
 * nonce of a first challenge has, deterministically; one sent with stale=true has not.
 */
function agedNonces(): Nonces {
  const inner = rememberedNonces();
  return {
    issue(request, response, stale) {
      const nonce = inner.issue(request, response, stale);
      const record = inner.recall(nonce, request);
      if (record && !stale) record.issuedAt -= NONCE_LIFETIME_SECONDS * 1000 + 1;
      return nonce;
    },
    recall: inner.recall,
  };
}

/** A grant's body in ISO-8859-1: its è is no UTF-8. */
const LATIN_1_GRANT = Buffer.from("<account><user>carol</user><city>Gen\u00e8ve</city></account>", "latin1");

export const TARGETS = {
  correct: {
    behaviour: "nothing wrong: RFC 7616 as written, with nonces usable until an nc repeats; the others' base",
    quirks: () => ({}),
  },
  "nonce-timestamp-only": {
    behaviour: "checks only the timestamp at the head of its nonces, so a nonce of its shape it never issued gets in",
    quirks: () => ({ nonces: timestampNonces() }),
  },
  "refuses-every-login": {
    behaviour: "refuses every login: its password file was made for another realm than the one it sends",
    quirks: () => ({ storedRealm: `${REALM}-old` }),
  },
  "unknown-algorithm-as-md5": {
    behaviour: "computes an algorithm it does not know as MD5, and reads nc of 6 to 8 characters with parseInt",
    quirks: () => ({
      // Its code knows the names it offers; anything else falls through to MD5.
      algorithmFor: (named: string | undefined, offered: readonly string[]): Algorithm =>
        RFC7616.algorithmFor(named, offered) ?? "MD5",
      readNc: (nc: string) => {
        const count = Number.parseInt(nc, 16);
        return nc.length >= 6 && nc.length <= 8 && !Number.isNaN(count) ? count : undefined;
      },
    }),
  },
  "sha-512-256-only": {
    behaviour: "offers SHA-512-256 only, an algorithm RFC 7616 registers",
    quirks: () => ({ offer: ["SHA-512-256"] }),
  },
  "offers-unregistered-too": {
    behaviour: "offers SHA3-256, which RFC 7616 does not register, before SHA-256",
    quirks: () => ({ offer: ["SHA3-256", "SHA-256"] }),
  },
  "nonce-in-session-cookie": {
    behaviour: "keeps its nonce in a session whose cookie it sets on the 401, and needs that cookie back",
    quirks: () => ({ nonces: sessionNonces() }),
  },
  "auth-int-body-ignored": {
    behaviour: "offers qop=auth-int but leaves the body out of that digest (the spec's literal formula)",
    quirks: () => ({
      expectedResponse: (input) => responseDigest(input.qop === "auth-int" ? { ...input, formula: "spec" } : input),
    }),
  },
  "auth-int-only": {
    behaviour: "offers qop=auth-int alone, its rspauth over the reply's body as RFC 2617 §3.2.3 says",
    quirks: () => ({ qops: ["auth-int"] }),
  },
  "rspauth-over-request-body": {
    behaviour: "computes auth-int's rspauth over the request's body instead of the reply's",
    quirks: () => ({
      rspauth: (input: ResponseInput, requestBody: Buffer, replyBody: Buffer) =>
        rspauthDigest(input, input.qop === "auth-int" ? requestBody : replyBody),
    }),
  },
  "auth-int-rspauth-random": {
    behaviour: "offers auth and auth-int, and sends a random rspauth where the request used auth-int",
    quirks: () => ({
      rspauth: (input: ResponseInput, requestBody: Buffer, replyBody: Buffer) =>
        input.qop === "auth-int" ? randomBytes(32).toString("hex") : RFC7616.rspauth(input, requestBody, replyBody),
    }),
  },
  "latin-1-reply": {
    behaviour: "offers qop=auth-int alone and grants with a body in ISO-8859-1, its rspauth over those bytes",
    quirks: () => ({ qops: ["auth-int"], granted: LATIN_1_GRANT }),
  },
  "latin-1-reply-rspauth-over-text": {
    behaviour:
      "as latin-1-reply, but its auth-int rspauth hashes the body read as UTF-8 (U+FFFD for each byte that is not), not the bytes it sent",
    quirks: () => ({
      qops: ["auth-int"],
      granted: LATIN_1_GRANT,
      rspauth: (input: ResponseInput, _requestBody: Buffer, replyBody: Buffer) =>
        rspauthDigest(input, replyBody.toString("utf8")),
    }),
  },
  "short-lived-nonces": {
    behaviour: `lets a nonce live ${NONCE_LIFETIME_SECONDS} s, then answers a right digest with stale=true; refuses an nc it has seen`,
    quirks: () => ({ lifetimeMs: NONCE_LIFETIME_SECONDS * 1000 }),
  },
  "nonces-aged-under-load": {
    behaviour: `as short-lived-nonces, with every nonce of a first challenge aged past its ${NONCE_LIFETIME_SECONDS} s by the time the answer comes, as under load`,
    quirks: () => ({ lifetimeMs: NONCE_LIFETIME_SECONDS * 1000, nonces: agedNonces() }),
  },
  "asks-userhash": {
    behaviour: "asks for userhash=true and knows its users only as H(username:realm)",
    quirks: () => ({ userhash: true }),
  },
  "one-time-nonces": {
    behaviour: "lets each nonce in once, then answers a right digest over it with stale=true",
    quirks: () => ({ usesPerNonce: 1 }),
  },
  "one-time-nonces-any-response": {
    behaviour:
      "lets each nonce in once, whatever the response directive says: it checks the nonce and never the digest",
    quirks: () => ({ usesPerNonce: 1, checksResponse: false }),
  },
  "three-uses-rfc2069-only": {
    behaviour: "speaks RFC 2069 only and lets each nonce in three times",
    quirks: () => ({ qops: [], usesPerNonce: 3 }),
  },
  "three-uses-rfc2069-replays-unlimited": {
    behaviour:
      "speaks RFC 2069 only and counts the uses of a nonce only where an nc comes with them: it has none, so a nonce never runs out",
    quirks: () => ({ qops: [], usesPerNonce: 3, countsUsesWithoutQop: false }),
  },
  "rfc2069-only": {
    behaviour: "speaks RFC 2069 only: no qop, so no nc and no cnonce",
    quirks: () => ({ qops: [] }),
  },
} satisfies Record<string, DigestTarget>;

export type TargetName = keyof typeof TARGETS;
