import type { ReferenceContext } from "../context.ts";
import type { Route } from "../http/reply.ts";

export function digestRoutes(_context: ReferenceContext): Route {
  return async () => undefined;
}
