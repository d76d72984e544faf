/**
 * The export conditions sxd stages for a run of the export task, where a client's fallback
 * (CEXP-4) acts: the contact list served without its export link, or the POST to the link
 * answered 503. Each holds for the whole run, so a client that reads the list again, or
 * tries the link twice, meets the same condition.
 */
import type { StagedCondition } from "../../lib/recording.ts";
import { errorReply, type Route } from "../http/reply.ts";
import { dispatch } from "../http/serve.ts";

const CONTACT_LIST = /^\/user\/[^/;]+\/contacts$/;
const IMPORT = /^\/user\/[^/;]+\/import(?:;|$)/;

/** The contacts server's routes, with the list's links other than self left out where "no-export-link" is staged. */
export function stagedContactsRoute(staged: (condition: StagedCondition) => boolean, contacts: Route[]): Route {
  return async (request) => {
    const reply = await dispatch(contacts, request);
    if (!staged("no-export-link") || request.method !== "GET" || !CONTACT_LIST.test(request.path)) return reply;
    return {
      ...reply,
      body: String(reply.body ?? "").replace(/^\s*<(?:atom:)?link\b(?![^>]*rel="self")[^>]*>\n/gm, ""),
    };
  };
}

/** Every POST to an export link answered 503 where "import-fails" is staged, as if the servers could not coordinate. */
export function stagedImportRoute(staged: (condition: StagedCondition) => boolean): Route {
  return async (request) => {
    if (!staged("import-fails") || request.method !== "POST" || !IMPORT.test(request.path)) return undefined;
    return errorReply(503, "staged by sxd: the messaging server cannot fetch the contacts now; export them yourself");
  };
}
