/**
 * Conditional requests (RFC 9110 §13.2.2), for state-changing methods. If-Match comes first;
 * If-Unmodified-Since counts only without If-Match and only when it is a valid HTTP date
 * and the resource has a date; If-None-Match last. The caller decides what to do when nothing
 * guarded the request (428, RFC 6585).
 */
import { parseHttpDate } from "../../lib/http-date.ts";

export interface Validators {
  /** Quoted strong entity tag. */
  etag: string;
  /** The stored modification time in ms: what If-Unmodified-Since is compared with. */
  lastModified: number;
}

export interface Conditions {
  ifMatch?: string;
  ifNoneMatch?: string;
  ifUnmodifiedSince?: string;
}

export type Verdict =
  | {
      pass: true;
      /** An If-Match or If-Unmodified-Since held: the client knew the current state. */
      knowsCurrent: boolean;
      /** `If-None-Match: *` held: the client meant to create. */
      expectsAbsent: boolean;
    }
  | { pass: false; failed: "If-Match" | "If-Unmodified-Since" | "If-None-Match" };

export interface EvaluateOptions {
  /** A fault mode: pretend If-Unmodified-Since always holds. */
  ignoreUnmodifiedSince?: boolean;
}

export function evaluatePreconditions(
  conditions: Conditions,
  current: Validators | undefined,
  options: EvaluateOptions = {},
): Verdict {
  let knowsCurrent = false;
  if (conditions.ifMatch !== undefined) {
    if (!current || !matchesAny(conditions.ifMatch, current.etag)) return { pass: false, failed: "If-Match" };
    knowsCurrent = true;
  } else {
    const since = parseHttpDate(conditions.ifUnmodifiedSince);
    if (since && current) {
      if (current.lastModified > since.getTime() && !options.ignoreUnmodifiedSince) {
        return { pass: false, failed: "If-Unmodified-Since" };
      }
      knowsCurrent = true;
    }
  }
  let expectsAbsent = false;
  if (conditions.ifNoneMatch !== undefined) {
    if (current && matchesAny(conditions.ifNoneMatch, current.etag)) return { pass: false, failed: "If-None-Match" };
    expectsAbsent = !current && conditions.ifNoneMatch.trim() === "*";
  }
  return { pass: true, knowsCurrent, expectsAbsent };
}

/** `*` or a list of entity tags, compared strongly: a weak tag never matches. */
function matchesAny(field: string, etag: string): boolean {
  if (field.trim() === "*") return true;
  const tags = field.match(/(?:W\/)?"[^"]*"/g) ?? [];
  return tags.some((tag) => !tag.startsWith("W/") && tag === etag);
}
