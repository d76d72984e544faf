/**
 * One export server each, written from the spec and shaped unlike the reference, for a team
 * that brings only one (sxd test --peer plays the other):
 *
 * - the messaging server asks `POST /backend/contacts?owner={user}` with the token in an
 *   `X-Link-Token` header, checks no token itself (the contacts server does), and answers with
 *   a relative Location;
 * - the contacts server hands out random tokens kept in a table, serves the backend request at
 *   `GET /internal/export/{user}?t={token}` and checks the token there.
 *
 * Each fault is one way such a server goes wrong, and fails the row named beside it.
 */
import { randomBytes } from "node:crypto";
import type { TargetDescription } from "../../harness/description/target.ts";
import { XML_TYPE } from "../../lib/media-type.ts";
import { contactListXml, EXPORT_REL, listen, refuse } from "./export-servers.ts";

export type MessagingFault =
  | "never-fetches" // EXP-5
  | "fetches-other-user" // EXP-5
  | "keeps-part" // EXP-5
  | "answers-302" // EXP-4
  | "location-on-contacts"; // EXP-4

export type ContactsFault =
  | "any-token" // EXP-6
  | "other-users-token" // EXP-6
  | "relative-href"; // EXP-3

export const MESSAGING_BACKEND = {
  path: "/backend/contacts?owner={user}",
  method: "POST",
  tokenHeader: "X-Link-Token",
};
export const CONTACTS_BACKEND = { path: "/internal/export/{user}?t={token}" };

interface Running {
  url: string;
  close(): Promise<void>;
}

/** `contactsUrl`: where the team configured the contacts server (sxd's, with --peer contacts). */
export async function startSmallMessaging(contactsUrl: string, fault?: MessagingFault): Promise<Running> {
  const held = new Map<string, string[]>();
  const server = await listen(async (url, method, response) => {
    const result = /^\/user\/([a-z]+)$/.exec(url.pathname)?.[1];
    if (method === "GET" && result) {
      const list = held.get(result);
      if (!list) return refuse(response, 404, "nothing imported");
      return response.writeHead(200, { "content-type": XML_TYPE }).end(`<imported>${list.join("")}</imported>`);
    }
    const importing = /^\/user\/([a-z]+)\/import;t=([^;/]*)$/.exec(url.pathname);
    if (method !== "POST" || !importing) return refuse(response, 404, "no such address");
    const [, user, token] = importing;
    if (fault !== "never-fetches") {
      const owner = fault === "fetches-other-user" ? (user === "alice" ? "bob" : "alice") : user;
      let reply: Response;
      try {
        reply = await fetch(`${contactsUrl}/backend/contacts?owner=${owner}`, {
          method: "POST",
          headers: { "x-link-token": decodeURIComponent(token) },
        });
      } catch {
        return refuse(response, 502, "the contacts server cannot be reached");
      }
      const text = await reply.text();
      if (reply.status >= 400 && reply.status < 500) return refuse(response, 403, "the link was refused");
      if (reply.status !== 200) return refuse(response, 502, `the contacts server answered ${reply.status}`);
      const contacts = text.match(/<contact[\s>][\s\S]*?<\/contact>/g) ?? [];
      held.set(user, fault === "keeps-part" ? contacts.slice(0, 1) : contacts);
    } else if (!held.has(user)) held.set(user, []);
    const location = fault === "location-on-contacts" ? `${contactsUrl}/user/${user}/contacts` : `/user/${user}`;
    response.writeHead(fault === "answers-302" ? 302 : 303, { location, "content-type": XML_TYPE }).end("<done/>");
  });
  return server;
}

const CONTACTS: Record<string, string[]> = {
  ada: ["<contact><name>Grace Hopper</name><email>grace@example.org</email></contact>"],
  lin: ["<contact><name>Alan Kay</name></contact>", "<contact><name>Adele Goldberg</name></contact>"],
};

/** `messagingUrl`: where the team's links lead (sxd's, with --peer messaging). */
export async function startSmallContacts(messagingUrl: string, fault?: ContactsFault): Promise<Running> {
  const tokens = new Map<string, string>();
  const server = await listen((url, method, response) => {
    if (method !== "GET") return refuse(response, 405, "GET only");
    const backend = /^\/internal\/export\/([a-z]+)$/.exec(url.pathname)?.[1];
    const listed = /^\/user\/([a-z]+)\/contacts$/.exec(url.pathname)?.[1];
    const user = backend ?? listed;
    if (!user || !CONTACTS[user]) return refuse(response, 404, "no such list");
    const owner = tokens.get(url.searchParams.get("t") ?? "");
    const accepted =
      fault === "any-token" || (owner !== undefined && (fault === "other-users-token" || owner === user));
    if (backend && !accepted) return refuse(response, 403, "not a token of this user's");
    const token = randomBytes(9).toString("base64url");
    tokens.set(token, user);
    const href = `${fault === "relative-href" ? "" : messagingUrl}/user/${user}/import;t=${token}`;
    const body = contactListXml(`${url.origin}/user/${user}/contacts`, href, CONTACTS[user]);
    response.writeHead(200, { "content-type": XML_TYPE }).end(body);
  });
  return server;
}

/** What a team writes in its description for each server. */
export const DESCRIPTIONS: Record<"messaging" | "contacts", Partial<TargetDescription>> = {
  messaging: { export: { user: "alice", otherUser: "bob", upload: false, backend: MESSAGING_BACKEND } },
  contacts: { export: { user: "ada", otherUser: "lin", rel: EXPORT_REL, upload: false, backend: CONTACTS_BACKEND } },
};
