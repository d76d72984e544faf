/**
 * The backend request of an export, which the spec does not show: how the messaging server
 * asks the contacts server for a user's list. A target description states it
 * (`export.backend`); the reference serves, checks and asks it the same way, so either of its
 * servers can stand in for the other side of a team's server (`sxd test --peer`).
 *
 *   { path: "/internal/export/{user}?t={token}", method: "GET", tokenHeader: "X-Export-Token" }
 *   { path: "/api/{user}/contacts", tokenHeader: "Authorization", tokenValue: "Bearer {token}" }
 *
 * The shapes are in lib/export-backend.ts. The default is what the reference always did: a GET on the list's own path, no token.
 * Every backend request the contacts server receives is told to `onBackendRequest`, so sxd
 * can show what its server saw as evidence (EXP-5).
 */
import {
  type BackendRequest,
  type BackendSeen,
  presentsToken,
  tokenHeaderValue,
  tokenOfHeader,
} from "../../lib/export-backend.ts";
import { percentDecoded, percentEncoded } from "../../lib/percent.ts";
import { errorReply, HttpError, type Reply, type Route, type ServerRequest } from "../http/reply.ts";

export const DEFAULT_BACKEND: BackendRequest = { path: "/user/{user}/contacts" };

/** The header sxd names its scenario in: a request carrying it is sxd's own, not a backend request. */
export const SCENARIO_HEADER = "x-sxd-scenario";

/** The messaging server's side: what to ask the contacts server for `user`'s list. */
export function backendRequestFor(
  backend: BackendRequest,
  user: string,
  token: string | undefined,
): { path: string; method: string; headers: Record<string, string> } {
  const path = backend.path
    .replaceAll("{user}", encodeURIComponent(user))
    .replaceAll("{token}", percentEncoded(token ?? ""));
  const headers =
    backend.tokenHeader && token !== undefined
      ? { [backend.tokenHeader.toLowerCase()]: tokenHeaderValue(backend, token) }
      : {};
  return { path, method: backend.method ?? "GET", headers };
}

/** The user and token of a request that has the template's shape; undefined for any other. */
export function matchBackend(
  backend: BackendRequest,
  request: Pick<ServerRequest, "method" | "target" | "path" | "headers">,
): { user: string; token: string | undefined } | undefined {
  if (request.method !== (backend.method ?? "GET")) return undefined;
  const names: string[] = [];
  const pattern = backend.path.replace(/\{(user|token)\}|[.*+?^$()|[\]\\{}]/g, (found, name?: string) => {
    if (!name) return `\\${found}`;
    names.push(name);
    return "([^/;?&#]*)";
  });
  const withQuery = backend.path.includes("?");
  const match = new RegExp(`^${pattern}${withQuery ? "(?:&.*)?" : ""}$`).exec(
    withQuery ? request.target : request.path,
  );
  if (!match) return undefined;
  const part = (name: string) => {
    const at = names.indexOf(name);
    if (at < 0) return undefined;
    // A token's bytes that are not UTF-8 stay bytes, as the messaging server read them (lib/percent.ts).
    return name === "token" ? percentDecoded(match[at + 1] ?? "") : safeDecode(match[at + 1] ?? "");
  };
  const user = part("user");
  if (!user) return undefined;
  const inHeader = backend.tokenHeader ? request.headers[backend.tokenHeader.toLowerCase()] : undefined;
  return {
    user,
    token: part("token") ?? (typeof inHeader === "string" ? tokenOfHeader(backend, inHeader) : undefined),
  };
}

/**
 * The contacts server's backend request: where it has the template's shape, the token is
 * checked with `checkToken` (where the template presents one) and the list is what `listRoute`
 * serves at the list's own path. Every such request is told to the recorder. (The reference's
 * context has both settings; it is not imported here, which would close an import circle.)
 */
export function backendRoute(
  context: { backend?: BackendRequest; onBackendRequest?: (seen: BackendSeen) => void },
  listRoute: Route,
  checkToken: (user: string, token: string | undefined) => string | undefined,
): Route {
  const backend = context.backend ?? DEFAULT_BACKEND;
  return async (request) => {
    if (request.headers[SCENARIO_HEADER] !== undefined) return undefined;
    const matched = matchBackend(backend, request);
    if (!matched) return undefined;
    const started = Date.now();
    const refused = presentsToken(backend) ? checkToken(matched.user, matched.token) : undefined;
    const listPath = `/user/${encodeURIComponent(matched.user)}/contacts`;
    const reply =
      refused !== undefined
        ? errorReply(403, refused)
        : await answered(listRoute, { ...request, method: "GET", path: listPath, target: listPath });
    context.onBackendRequest?.({
      method: request.method,
      target: request.target,
      headers: flatHeaders(request.headers),
      ...matched,
      status: reply.status,
      responseHeaders: flatHeaders(reply.headers ?? {}),
      body: typeof reply.body === "string" ? reply.body : (reply.body?.toString("utf8") ?? ""),
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
    });
    return reply;
  };
}

async function answered(route: Route, request: ServerRequest): Promise<Reply> {
  try {
    return (await route(request)) ?? errorReply(404, "no contact list here");
  } catch (error) {
    if (error instanceof HttpError) return errorReply(error.status, error.message, error.headers);
    throw error;
  }
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers)
      .filter((entry): entry is [string, string | string[]] => entry[1] !== undefined)
      .map(([name, value]) => [name.toLowerCase(), [value].flat().join(", ")]),
  );
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** Where the contacts server checks the token (tokenCheckedByContactsServer), its 4xx is the link's refusal. */
export function refusedByContacts(backendStatus: number | undefined): void {
  if (backendStatus !== undefined && backendStatus >= 400 && backendStatus <= 499) {
    throw new HttpError(403, `the contacts server refused the export link's token (status ${backendStatus})`);
  }
}
