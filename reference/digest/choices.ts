/**
 * The digest protection's choices where the spec says "not shown", one set per variant
 * (context.ts): the standard one, and the other allowed choice, so the suite can prove it
 * takes neither for a rule. `digestChoices` is where the variant is read; the routes ask
 * what to do, never which variant runs. Settings (digestHashes, digestQops) come first.
 */
import type { HashName, Qop } from "../../lib/digest-math.ts";
import type { ReferenceContext, Variant } from "../context.ts";

export interface DigestChoices {
  /** The hashes offered, one challenge each, in this order. */
  hashes: readonly HashName[];
  /** The qop values offered. */
  qops: readonly Qop[];
  /** Whether a challenge carries an opaque value. */
  sendsOpaque: boolean;
  /**
   * The status of malformed credentials: 400, or 401 with a fresh challenge (as Apache does).
   * A uri that does not name the request target gets 400 either way.
   */
  malformedStatus: 400 | 401;
}

const DIGEST_CHOICES: Record<Variant, DigestChoices> = {
  standard: { hashes: ["SHA-256", "MD5"], qops: ["auth", "auth-int"], sendsOpaque: true, malformedStatus: 400 },
  alternative: { hashes: ["MD5"], qops: ["auth"], sendsOpaque: false, malformedStatus: 401 },
};

export function digestChoices(context: Pick<ReferenceContext, "variant">): DigestChoices {
  return DIGEST_CHOICES[context.variant];
}
