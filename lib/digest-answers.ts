/**
 * The Digest answers a client sent, read from the recording: each Authorization with its
 * directives, whether each was quoted (RFC 7616 §3.4 says which must be), and the challenges
 * sxd issued before it, so that a grade can say "as challenged".
 */
import { type AuthItem, parseChallenges, parseCredentials } from "./auth-params.ts";
import type { RecordedRequest } from "./recording.ts";

export interface DigestAnswer {
  /** 1-based place of the request in the task's recording. */
  number: number;
  request: RecordedRequest;
  params: ReadonlyMap<string, string>;
  /** Lower-case directive name → whether its value was a quoted-string. */
  quoted: ReadonlyMap<string, boolean>;
  /** The parse error, where the header is not an auth-param list. */
  problem?: string;
}

export function fieldOf(request: RecordedRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** The absolute URL the request was sent to: its origin (or http:// and its Host) and its target. */
export function urlOf(request: RecordedRequest): string {
  return `${request.origin ?? `http://${fieldOf(request, "host") ?? request.server}`}${request.target}`;
}

/** Every request that carries Authorization: Digest, in the order they came. */
export function digestAnswers(requests: readonly RecordedRequest[]): DigestAnswer[] {
  return requests.flatMap((request, index) => {
    const field = fieldOf(request, "authorization");
    if (field === undefined || !/^\s*digest\s/i.test(field)) return [];
    const parsed = parseCredentials(field);
    const quoted = quotingOf(field.replace(/^\s*digest\s+/i, ""));
    return parsed.ok
      ? [{ number: index + 1, request, params: parsed.value.params, quoted }]
      : [{ number: index + 1, request, params: new Map(), quoted, problem: parsed.error }];
  });
}

/** The Digest challenges of every 401 in the recording, by the nonce they carry. */
export function issuedChallenges(requests: readonly RecordedRequest[]): Map<string, AuthItem> {
  return new Map([...challengesByNonce(requests)].map(([nonce, items]) => [nonce, items.at(-1) as AuthItem]));
}

/**
 * Every Digest challenge of the recording with its nonce, in order: a server may offer one
 * nonce in several challenges (one per algorithm), and an answer comes from one of them.
 */
export function challengesByNonce(requests: readonly RecordedRequest[]): Map<string, AuthItem[]> {
  const issued = new Map<string, AuthItem[]>();
  for (const { reply } of requests) {
    const field = reply.headers["www-authenticate"];
    if (reply.status !== 401 || field === undefined) continue;
    const parsed = parseChallenges(field);
    if (!parsed.ok) continue;
    for (const item of parsed.value) {
      const nonce = item.params.get("nonce");
      if (item.scheme.toLowerCase() === "digest" && nonce !== undefined)
        issued.set(nonce, [...(issued.get(nonce) ?? []), item]);
    }
  }
  return issued;
}

/** Name → quoted, for a `name=value, name="value"` list; a name seen twice keeps its first form. */
export function quotingOf(list: string): Map<string, boolean> {
  const quoted = new Map<string, boolean>();
  const pattern = /\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^,]*)\s*,?/gy;
  for (const match of list.matchAll(pattern)) {
    const name = (match[1] ?? "").toLowerCase();
    if (!quoted.has(name)) quoted.set(name, (match[2] ?? "").startsWith('"'));
  }
  return quoted;
}
