/**
 * What parsing or checking gives back, so that an error is a value with a message a person can
 * act on, never a throw: `{ ok: true, value }` or `{ ok: false, error }`.
 */
export type Result<T> = { ok: true; value: T } | { ok: false; error: string };
