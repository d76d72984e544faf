/**
 * The users the reference knows, as Apache's htdigest file stores them: one
 * `user:realm:H(user:realm:password)` line each, never the password. MD5 lines (32 hex
 * digits) are what `htdigest` writes; a SHA-256 line (64 digits) for the same user lets
 * that user answer the SHA-256 challenge too.
 *
 *   htdigest -c users.htdigest sxd-reference alice
 */
import { type HashName, hashA1 } from "../../lib/digest-math.ts";
import type { Result } from "../../lib/result.ts";

/** H(user:realm:password) per hash, by user name. */
export type UserStore = ReadonlyMap<string, Partial<Record<HashName, string>>>;

/** The user a fresh reference knows (the target description's defaults name the same). */
export const DEMO_USER = { username: "demo", password: "sxd-demo-secret" } as const;

export function demoUsers(realm: string): Map<string, Partial<Record<HashName, string>>> {
  const { username, password } = DEMO_USER;
  return new Map([
    [
      username,
      { MD5: hashA1("MD5", username, realm, password), "SHA-256": hashA1("SHA-256", username, realm, password) },
    ],
  ]);
}

/** Reads an htdigest file's text into `users`; the first bad line is reported with its number. */
export function parseHtdigest(
  text: string,
  realm: string,
  users: Map<string, Partial<Record<HashName, string>>> = new Map(),
): Result<Map<string, Partial<Record<HashName, string>>>> {
  const lines = text.split(/\r?\n/);
  for (const [index, line] of lines.entries()) {
    if (line.trim() === "" || line.startsWith("#")) continue;
    const where = `users file line ${index + 1}`;
    const match = /^([^:]+):([^:]*):([0-9a-fA-F]+)$/.exec(line.trim());
    if (!match) return { ok: false, error: `${where}: expected user:realm:hash as htdigest writes it` };
    const [, user, lineRealm, digest] = match;
    if (lineRealm !== realm) {
      return { ok: false, error: `${where}: realm "${lineRealm}" is not this server's realm "${realm}"` };
    }
    const hash: HashName | undefined = digest.length === 32 ? "MD5" : digest.length === 64 ? "SHA-256" : undefined;
    if (!hash) return { ok: false, error: `${where}: the hash must be 32 (MD5) or 64 (SHA-256) hex digits` };
    users.set(user, { ...users.get(user), [hash]: digest.toLowerCase() });
  }
  return { ok: true, value: users };
}

/**
 * The hashes of `wanted`, in its order, that every user has a stored H(A1) for. A challenge
 * comes before the user name does, so only these can be offered without locking someone out
 * (an htdigest file of MD5 lines leaves MD5 alone).
 */
export function verifiableHashes(users: UserStore, wanted: readonly HashName[]): HashName[] {
  return wanted.filter((hash) => [...users.values()].every((stored) => stored[hash] !== undefined));
}
