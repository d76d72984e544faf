import type { ReferenceContext } from "../context.ts";
import type { Route } from "../http/reply.ts";

export function contactsRoutes(_context: ReferenceContext): Route {
  return async () => undefined;
}

export function messagingRoutes(_context: ReferenceContext): Route {
  return async () => undefined;
}
