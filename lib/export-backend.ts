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
