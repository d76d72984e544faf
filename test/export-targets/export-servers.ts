/**
 * A contacts server and a messaging server written from the spec, unlike the reference in
 * their token: random, kept in a table, possibly single-use. They share memory instead of a
 * backend request, which the suite cannot see either way. Each `TokenRules` field is one way
 * real servers differ; the default is single-use tokens, a new one per read, bound to the user.
 *
 *   const pair = await startExportPair({ boundToUser: false });
 *   pair.description // contactsUrl, messagingUrl and the export users, for the suite
 *
 * `ContactRules` say what the lists hold and what the messaging server keeps of them.
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { TargetDescription } from "../../harness/description/target.ts";
import { XML_TYPE } from "../../lib/media-type.ts";
import { errorDocument } from "../../lib/xml.ts";

export interface TokenRules {
  /**
   * When the list hands out a new token: on every read, once the last was spent, never (one per
   * user), or only on the user's first read (later reads show no export link at all).
   */
  issue: "per-read" | "after-spent" | "once-per-user" | "first-read-only";
  /** A token exports once. */
  singleUse: boolean;
  /** A token exports only the contacts of the user it was issued for. */
  boundToUser: boolean;
}

const STANDARD_CONTACTS: Record<string, string[]> = {
  ada: ["<contact><name>Grace Hopper</name><email>grace@example.org</email></contact>"],
  lin: ["<contact><name>Alan Kay</name><email>alan@example.org</email></contact>"],
};

export const EXPORT_REL = "urn:example:rel:export";

export interface ContactRules {
  /** User name → the contact elements of the user's list. */
  contacts: Record<string, string[]>;
  /** What the messaging server keeps of the contacts of a list it imports. */
  keep: (contacts: readonly string[]) => string[];
}

export interface ExportPair {
  description: Pick<TargetDescription, "contactsUrl" | "messagingUrl"> & { export: TargetDescription["export"] };
  close(): Promise<void>;
}

export async function startExportPair(
  overrides: Partial<TokenRules> = {},
  contactRules: Partial<ContactRules> = {},
): Promise<ExportPair> {
  const rules: TokenRules = { issue: "per-read", singleUse: true, boundToUser: true, ...overrides };
  const { contacts: lists, keep }: ContactRules = { contacts: STANDARD_CONTACTS, keep: (c) => [...c], ...contactRules };
  const tokens = new Map<string, { user: string; spent: boolean }>();
  const held = new Map<string, string[]>();
  let messagingUrl = "";

  const tokenFor = (user: string): string => {
    const mine = [...tokens].filter(([, t]) => t.user === user);
    const unspent = mine.find(([, t]) => !t.spent);
    if (rules.issue === "once-per-user" && mine.length > 0) return mine[0][0];
    if (rules.issue === "after-spent" && unspent) return unspent[0];
    const token = randomBytes(12).toString("hex");
    tokens.set(token, { user, spent: false });
    return token;
  };

  const contacts = await listen((url, method, response) => {
    const user = /^\/user\/([a-z]+)\/contacts$/.exec(url.pathname)?.[1];
    if (method !== "GET" || !user || !lists[user]) return refuse(response, 404, "no such list");
    const readBefore = [...tokens.values()].some((t) => t.user === user);
    if (rules.issue === "first-read-only" && readBefore)
      return response
        .writeHead(200, { "content-type": XML_TYPE })
        .end(contactListXml(url.href, undefined, lists[user]));
    const href = `${messagingUrl}/user/${user}/import;t=${tokenFor(user)}`;
    response.writeHead(200, { "content-type": XML_TYPE }).end(contactListXml(url.href, href, lists[user]));
  });

  const messaging = await listen((url, method, response) => {
    const result = /^\/user\/([a-z]+)$/.exec(url.pathname)?.[1];
    if (method === "GET" && result) {
      const list = held.get(result);
      if (!list) return refuse(response, 404, "nothing imported");
      return response.writeHead(200, { "content-type": XML_TYPE }).end(`<imported>${list.join("")}</imported>`);
    }
    const importing = /^\/user\/([a-z]+)\/import;t=([0-9a-f]*)$/.exec(url.pathname);
    if (method !== "POST" || !importing) return refuse(response, 404, "no such address");
    const [, user, token] = importing;
    const known = tokens.get(token);
    if (!known) return refuse(response, 403, "unknown token");
    if (rules.singleUse && known.spent) return refuse(response, 403, "token already used");
    if (rules.boundToUser && known.user !== user) return refuse(response, 403, "token of another user");
    known.spent = true;
    // Not bound: the token opens the user of the address, as a server that signs only the token's own id.
    held.set(user, keep(lists[user] ?? []));
    response.writeHead(303, { location: `${messagingUrl}/user/${user}`, "content-type": XML_TYPE }).end("<exported/>");
  });
  messagingUrl = messaging.url;

  return {
    description: {
      contactsUrl: contacts.url,
      messagingUrl,
      export: { user: "ada", otherUser: "lin", rel: EXPORT_REL, upload: false },
    },
    close: async () => {
      await Promise.all([contacts.close(), messaging.close()]);
    },
  };
}

/** A contact list with its self link and its export link. */
export function contactListXml(self: string, exportHref: string | undefined, contacts: readonly string[]): string {
  return [
    `<contacts xmlns:atom="http://www.w3.org/2005/Atom">`,
    `<atom:link rel="self" href="${self}"/>`,
    ...(exportHref === undefined
      ? []
      : [`<atom:link rel="${EXPORT_REL}" title="Send to messaging" href="${exportHref}"/>`]),
    ...contacts,
    "</contacts>",
  ].join("");
}

export function refuse(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { "content-type": XML_TYPE }).end(errorDocument(message));
}

export async function listen(
  handle: (url: URL, method: string, response: ServerResponse) => unknown,
): Promise<{ url: string; close(): Promise<void> }> {
  let origin = "";
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on("end", () => handle(new URL(request.url ?? "/", origin), request.method ?? "GET", response));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
