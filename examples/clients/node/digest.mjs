/**
 * The Digest maths of the example client (RFC 7616), pure: reading challenges and computing
 * a response or an rspauth.
 */
import { createHash } from "node:crypto";

export const HASHES = { "SHA-256": "sha256", MD5: "md5" };

/** The auth-params of every challenge in a WWW-Authenticate value: [{ scheme, params }]. */
export function parseChallenges(header) {
  const challenges = [];
  const pattern = /\s*,?\s*(?:([A-Za-z][\w-]*)\s+(?=[\w-]+\s*=))?([\w-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^,\s]*)/gy;
  for (const [, scheme, name, raw] of header.matchAll(pattern)) {
    if (scheme) challenges.push({ scheme: scheme.toLowerCase(), params: new Map() });
    const value = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, "$1") : raw;
    challenges.at(-1)?.params.set(name.toLowerCase(), value);
  }
  return challenges;
}

const hash = (algorithm, text) => createHash(HASHES[algorithm]).update(text).digest("hex");

/** The response (method given) or rspauth (method "") of RFC 7616 §3.4.1 and §3.5. */
export function digest({ algorithm, user, realm, password, nonce, nc, cnonce, qop, method, uri, body }) {
  const ha1 = hash(algorithm, `${user}:${realm}:${password}`);
  const a2 = qop === "auth-int" ? `${method}:${uri}:${hash(algorithm, body ?? "")}` : `${method}:${uri}`;
  return hash(algorithm, `${ha1}:${nonce}:${nc}:${cnonce}:${qop}:${hash(algorithm, a2)}`);
}
