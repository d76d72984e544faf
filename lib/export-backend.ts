/**
 * The backend request of an export, which the spec does not show: how the messaging server
 * asks the contacts server for a user's list, as a target description states it
 * (`export.backend`), and what a contacts server saw of one. Shared by the reference, which
 * serves and asks it, and the suite, which reads what sxd's own contacts server saw.
 */

/** `path` is a template on the contacts server with `{user}` and, where the token is presented there, `{token}`. */
export interface BackendRequest {
  path: string;
  /** Default GET. */
  method?: string;
  /** A header carrying the token, instead of or besides `{token}` in the path. */
  tokenHeader?: string;
  /** That header's value, a template with `{token}` (`Bearer {token}`). Default `{token}`, the bare token. */
  tokenValue?: string;
}

const TOKEN_PLACE = "{token}";

/** Whether a tokenValue template names the token's place, once. */
export function holdsTokenOnce(template: string): boolean {
  return template.split(TOKEN_PLACE).length === 2;
}

/** The tokenHeader's value for `token`, as the template says. */
export function tokenHeaderValue(backend: BackendRequest, token: string): string {
  return (backend.tokenValue ?? TOKEN_PLACE).replace(TOKEN_PLACE, () => token);
}

/**
 * The token in a tokenHeader's value, where the value has the template's shape; undefined
 * where it does not. The text around `{token}` is compared without regard to case, as an
 * authentication scheme is (`bearer` stands for `Bearer`, RFC 9110 §11.1).
 */
export function tokenOfHeader(backend: BackendRequest, value: string): string | undefined {
  const [before = "", after = ""] = (backend.tokenValue ?? TOKEN_PLACE).split(TOKEN_PLACE);
  const fits =
    value.length > before.length + after.length &&
    value.slice(0, before.length).toLowerCase() === before.toLowerCase() &&
    value.slice(value.length - after.length).toLowerCase() === after.toLowerCase();
  return fits ? value.slice(before.length, value.length - after.length) : undefined;
}

/** What a contacts server saw of one backend request, and what it answered. */
export interface BackendSeen {
  method: string;
  /** The request-target as sent. */
  target: string;
  headers: Record<string, string>;
  user: string;
  /** The token as presented (path or header); absent where none was. */
  token?: string;
  status: number;
  responseHeaders: Record<string, string>;
  body: string;
  startedAt: string;
  durationMs: number;
}

/** Whether the backend request carries the token to the contacts server, in its path or a header. */
export function presentsToken(backend: BackendRequest | undefined): boolean {
  return backend !== undefined && (backend.path.includes("{token}") || backend.tokenHeader !== undefined);
}

/**
 * What a messaging server sent as one backend request and what came back (or why nothing
 * did), with the request of sxd's that made it ask: sxd's own messaging server keeps these
 * where it plays that side, so a scenario's transcript shows them.
 */
export interface BackendSent {
  method: string;
  url: string;
  headers: Record<string, string>;
  status?: number;
  responseHeaders?: Record<string, string>;
  body?: string;
  /** Why no reply came: refused, timed out. */
  error?: string;
  startedAt: string;
  durationMs: number;
  /** The request the messaging server was answering: its method, request-target and X-Sxd-Scenario. */
  cause: { method: string; target: string; scenario?: string };
}
