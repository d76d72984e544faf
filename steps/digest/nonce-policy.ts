/**
 * The nonce policy and lifetime a target description states, read one way for every scenario
 * that depends on them (DIG-9, DIG-10). A key left out means the user did not say, never
 * "no limit": the rows that need it are not run, with the key to set. A stated number of uses
 * is a number of uses: only a use beyond it must be refused.
 *
 *   nonceAllowance({ uses: 3 })          // { kind: "uses", uses: 3 }
 *   describeUse({ uses: 3 }, 4)          // 'use 4 of a nonce, where digest.noncePolicy {"uses":3} allows 3 uses'
 */
import type { NoncePolicy } from "../../lib/digest-math.ts";

export type NonceAllowance =
  /** The description says nothing: whether and how the server limits nonces is unknown. */
  | { kind: "unstated" }
  /** Stated: any number of uses (the lifetime may still end them). */
  | { kind: "unlimited" }
  /** Stated: each nonce count once, any number of counts ("nc-once"). */
  | { kind: "each-count-once" }
  /** Stated: this many uses of a nonce ("one-time" is one). */
  | { kind: "uses"; uses: number };

export function nonceAllowance(policy: NoncePolicy | undefined): NonceAllowance {
  if (policy === undefined) return { kind: "unstated" };
  if (policy === "unlimited") return { kind: "unlimited" };
  if (policy === "nc-once") return { kind: "each-count-once" };
  return { kind: "uses", uses: policy === "one-time" ? 1 : policy.uses };
}

/** The policy as the description states it, for messages: `digest.noncePolicy {"uses":3}`. */
export function describePolicy(policy: NoncePolicy | undefined): string {
  return `digest.noncePolicy ${policy === undefined ? "(not stated)" : JSON.stringify(policy)}`;
}

/** Which use of how many the policy allows, for a failure message. */
export function describeUse(policy: NoncePolicy | undefined, use: number): string {
  const allowance = nonceAllowance(policy);
  const allowed =
    allowance.kind === "uses"
      ? `allows ${allowance.uses} ${allowance.uses === 1 ? "use" : "uses"}`
      : allowance.kind === "each-count-once"
        ? "allows each nonce count once"
        : "sets no limit";
  return `use ${use} of a nonce, where ${describePolicy(policy)} ${allowed}`;
}

/** How long the description says a nonce stays usable. */
export type NonceExpiry =
  | { kind: "unstated" }
  /** Stated: nonces do not expire ("unlimited"). */
  | { kind: "never" }
  | { kind: "after"; seconds: number };

export function nonceExpiry(lifetime: number | "unlimited" | undefined): NonceExpiry {
  if (lifetime === undefined) return { kind: "unstated" };
  return lifetime === "unlimited" ? { kind: "never" } : { kind: "after", seconds: lifetime };
}

/** What to set where the description does not say whether the server limits its nonces (DIG-9). */
export const STATE_NONCE_POLICY =
  'state digest.noncePolicy ("one-time", {"uses": N}, "nc-once", or "unlimited" where the server sets no limit)';

/** The keys to set where the description does not say enough to stage an unusable nonce (DIG-10). */
export const STATE_NONCE_LIMITS =
  'state digest.nonceLifetime (seconds, or "unlimited" where nonces never expire) or a use limit in digest.noncePolicy';
