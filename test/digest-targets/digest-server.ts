/**
 * A small digest-protected server written from RFC 7616, for testing the suite against
 * servers that behave like real ones. The default is a correct server: one challenge per
 * offered algorithm, a nonce of its own in every 401, the nonce count rising with every use
 * of a nonce, 400 for credentials that break the syntax, 401 with a fresh challenge for a
 * wrong digest, stale=true only for a right digest over a nonce that has expired, and on
 * success 200 with an XML body and Authentication-Info. Each target in this folder changes
 * one `Quirks` entry: the bug it is about, and nothing else.
 *
 *   const server = await startDigestServer({ qops: [] }); // speaks RFC 2069 only
 *   server.description // the target description that tells the suite where and who
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { TargetDescription } from "../../harness/description/target.ts";
import { type Directive, formatParams, parseCredentials } from "../../lib/auth-params.ts";
import {
  type Algorithm,
  hashA1,
  hashOf,
  hashUsername,
  parseAlgorithm,
  type Qop,
  type ResponseInput,
  responseDigest,
  rspauthDigest,
} from "../../lib/digest-math.ts";
import { XML_TYPE } from "../../lib/media-type.ts";
import { errorDocument } from "../../lib/xml.ts";

export const USER = { username: "carol", password: "kept-by-carol-only" };
export const REALM = "accounts@targets.test";
export const PROTECTED_PATH = "/account";

/** What a server remembers of a nonce it issued. */
export interface NonceRecord {
  issuedAt: number;
  /** The highest nonce count used with it so far (0: unused). */
  lastNc: number;
  /** How many requests it has let in. */
  uses?: number;
}

/** How a server hands out nonces and recognises them when they come back. */
export interface Nonces {
  /** `stale`: for a challenge marked stale=true, which follows a right digest over an expired nonce. */
  issue(request: IncomingMessage, response: ServerResponse, stale: boolean): string;
  /** What the server knows of this nonce, or undefined when it does not take it as its own. */
  recall(nonce: string, request: IncomingMessage): NonceRecord | undefined;
}

export interface Quirks {
  /** The algorithms offered, one challenge each. Default: SHA-256 then MD5. */
  offer: readonly string[];
  /** The qop values offered; none: the RFC 2069 form. Default: auth and auth-int. */
  qops: readonly Qop[];
  nonces: Nonces;
  /** How long a nonce stays usable; a right digest over an older one gets stale=true. */
  lifetimeMs: number;
  /** The algorithm the server computes with for what the credentials name, or undefined to refuse them. */
  algorithmFor(named: string | undefined, offered: readonly string[]): Algorithm | undefined;
  /** The count an nc directive stands for, or undefined when it is malformed. */
  readNc(nc: string): number | undefined;
  /** The response the server expects for the request. */
  expectedResponse(input: ResponseInput): string;
  /** The realm the stored H(username:realm:password) was made with. */
  storedRealm: string;
  /** Asks for userhash=true and knows users only by H(username:realm) in the username directive (RFC 7616 §3.4.4). */
  userhash: boolean;
  /** How many requests one nonce lets in; a right digest over a used-up nonce gets stale=true. */
  usesPerNonce: number;
  /** Whether the uses of credentials without qop (RFC 2069 form) count towards usesPerNonce. */
  countsUsesWithoutQop: boolean;
  /** Whether the response directive is compared with the digest at all. */
  checksResponse: boolean;
  /** How the challenge writes an algorithm it offers: RFC 7616 §3.3 has a bare token, as registered. */
  algorithmDirective(name: string): Directive;
  /** The rspauth of a grant; with auth-int, RFC 2617 §3.2.3 hashes the reply's body. */
  rspauth(input: ResponseInput, requestBody: Buffer, replyBody: Buffer): string;
  /** The body of a grant, as sent. */
  granted: Buffer;
  /** A 401 with an HTML page for a body, as most real servers send, not the spec's XML error (DIG-2). */
  htmlChallengeBody: boolean;
  /** The methods the protected resource takes; another gets 405 (default: every method). */
  methods?: readonly string[];
}

/** Nonces the server keeps in memory: random, recognised only when issued here. */
export function rememberedNonces(): Nonces {
  const issued = new Map<string, NonceRecord>();
  return {
    issue() {
      const nonce = randomBytes(18).toString("base64url");
      issued.set(nonce, { issuedAt: Date.now(), lastNc: 0 });
      return nonce;
    },
    recall: (nonce) => issued.get(nonce),
  };
}

export const RFC7616: Omit<Quirks, "nonces"> = {
  offer: ["SHA-256", "MD5"],
  qops: ["auth", "auth-int"],
  lifetimeMs: Number.POSITIVE_INFINITY,
  algorithmFor: (named, offered) => {
    const algorithm = parseAlgorithm(named);
    return algorithm && offered.some((name) => parseAlgorithm(name) === algorithm) ? algorithm : undefined;
  },
  readNc: (nc) => (/^[0-9a-f]{8}$/i.test(nc) ? Number.parseInt(nc, 16) : undefined),
  expectedResponse: responseDigest,
  storedRealm: REALM,
  userhash: false,
  usesPerNonce: Number.POSITIVE_INFINITY,
  countsUsesWithoutQop: true,
  checksResponse: true,
  algorithmDirective: (name) => ({ name: "algorithm", value: name, quoted: false }),
  rspauth: (input, _requestBody, replyBody) => rspauthDigest(input, replyBody),
  granted: Buffer.from(`<account><user>${USER.username}</user></account>`),
  htmlChallengeBody: false,
};

export interface DigestServer {
  url: string;
  /** Where the protected resource is and who may get it; add the options the server takes. */
  description: Partial<TargetDescription> & { baseUrl: string };
  close(): Promise<void>;
}

type Outcome =
  | { status: 400; message: string }
  | { status: 401; message: string; stale: boolean }
  | { status: 200; authenticationInfo: Directive[] };

/** `port`: where to listen on 127.0.0.1 (default: a free port the system picks). */
export async function startDigestServer(overrides: Partial<Quirks> = {}, port = 0): Promise<DigestServer> {
  const quirks: Quirks = { ...RFC7616, nonces: rememberedNonces(), ...overrides };

  const challenge = (request: IncomingMessage, response: ServerResponse, stale: boolean): string[] => {
    const nonce = quirks.nonces.issue(request, response, stale);
    return quirks.offer.map((algorithm) => {
      const directives: Directive[] = [{ name: "realm", value: REALM, quoted: true }];
      if (quirks.qops.length > 0) directives.push({ name: "qop", value: quirks.qops.join(", "), quoted: true });
      directives.push(quirks.algorithmDirective(algorithm), { name: "nonce", value: nonce, quoted: true });
      if (stale) directives.push({ name: "stale", value: "true", quoted: false });
      if (quirks.userhash) directives.push({ name: "userhash", value: "true", quoted: false });
      return `Digest ${formatParams(directives)}`;
    });
  };

  /** Who the username directive names; a server that asks for userhash knows users only by H(username:realm). */
  const userNamed = (value: string, hashed: boolean, algorithm: Algorithm): string | undefined => {
    if (!hashed) return quirks.userhash ? undefined : value;
    return value === hashUsername(hashOf(algorithm), USER.username, REALM) ? USER.username : undefined;
  };

  const judge = (request: IncomingMessage, body: Buffer): Outcome | undefined => {
    const header = request.headers.authorization;
    if (header === undefined || !/^digest\s/i.test(header)) return undefined;
    const parsed = parseCredentials(header);
    if (!parsed.ok) return { status: 400, message: `unreadable credentials: ${parsed.error}` };
    const given = parsed.value.params;
    const qop = given.get("qop");
    const required = ["username", "realm", "nonce", "uri", "response"];
    if (quirks.qops.length > 0 || qop !== undefined) required.push("qop", "nc", "cnonce");
    const absent = required.filter((name) => !given.has(name));
    if (absent.length > 0) return { status: 400, message: `missing ${absent.join(", ")}` };
    const field = (name: string) => given.get(name) ?? "";
    const algorithm = quirks.algorithmFor(given.get("algorithm"), quirks.offer);
    if (!algorithm) return { status: 400, message: `algorithm ${given.get("algorithm")} is not offered` };
    if (qop !== undefined && !quirks.qops.includes(qop as Qop))
      return { status: 400, message: `qop ${qop} not offered` };
    const nc = qop === undefined ? 0 : quirks.readNc(field("nc"));
    if (nc === undefined) return { status: 400, message: "nc must be eight hexadecimal digits" };
    if (field("uri") !== request.url) return { status: 400, message: "uri is not the request target" };
    if (field("realm") !== REALM) return { status: 401, message: "another realm", stale: false };
    const record = quirks.nonces.recall(field("nonce"), request);
    if (!record) return { status: 401, message: "a nonce not issued here", stale: false };
    const username = userNamed(field("username"), given.get("userhash")?.toLowerCase() === "true", algorithm);
    const input: ResponseInput = {
      algorithm,
      ha1: hashA1(hashOf(algorithm), username ?? field("username"), quirks.storedRealm, USER.password),
      nonce: field("nonce"),
      method: request.method ?? "GET",
      uri: field("uri"),
      qop: qop as Qop | undefined,
      nc: given.get("nc"),
      cnonce: given.get("cnonce"),
      body,
    };
    const known = username === USER.username;
    const matches = quirks.expectedResponse(input) === field("response").toLowerCase();
    if (quirks.checksResponse && (!known || !matches)) {
      return { status: 401, message: "wrong user name or secret", stale: false };
    }
    if (Date.now() - record.issuedAt > quirks.lifetimeMs) return { status: 401, message: "nonce expired", stale: true };
    const counted = qop !== undefined || quirks.countsUsesWithoutQop;
    if (counted && (record.uses ?? 0) >= quirks.usesPerNonce)
      return { status: 401, message: "nonce used up", stale: true };
    if (qop !== undefined && nc <= record.lastNc)
      return { status: 401, message: "nonce count seen before", stale: false };
    record.lastNc = nc;
    if (counted) record.uses = (record.uses ?? 0) + 1;
    const echoed: Directive[] =
      qop === undefined
        ? []
        : [
            { name: "qop", value: qop, quoted: false },
            { name: "nc", value: field("nc"), quoted: false },
            { name: "cnonce", value: field("cnonce"), quoted: true },
          ];
    return {
      status: 200,
      authenticationInfo: [
        { name: "rspauth", value: quirks.rspauth(input, body, quirks.granted), quoted: true },
        ...echoed,
      ],
    };
  };

  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const path = new URL(request.url ?? "/", "http://target").pathname;
    if (path !== PROTECTED_PATH) return send(response, 404, "no such resource");
    if (quirks.methods && !quirks.methods.includes(request.method ?? "")) {
      response.setHeader("allow", quirks.methods.join(", "));
      return send(response, 405, `${request.method} is not served here`);
    }
    const outcome = judge(request, Buffer.concat(chunks)) ?? {
      status: 401,
      message: "log in with Digest",
      stale: false,
    };
    if (outcome.status === 200) {
      response.setHeader("authentication-info", formatParams(outcome.authenticationInfo));
      return send(response, 200, "", quirks.granted);
    }
    if (outcome.status === 401) response.setHeader("www-authenticate", challenge(request, response, outcome.stale));
    if (outcome.status === 401 && quirks.htmlChallengeBody) return sendHtml(response, outcome.message);
    send(response, outcome.status, outcome.message);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    description: { baseUrl: url, digest: { path: PROTECTED_PATH, ...USER } },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(
  response: ServerResponse,
  status: number,
  message: string,
  body: string | Buffer = errorDocument(message),
): void {
  response.writeHead(status, { "content-type": XML_TYPE });
  response.end(body);
}

function sendHtml(response: ServerResponse, message: string): void {
  response.writeHead(401, { "content-type": "text/html; charset=utf-8" });
  response.end(
    `<!DOCTYPE html><html><head><title>401 Unauthorized</title></head><body><p>${message}</p></body></html>`,
  );
}
