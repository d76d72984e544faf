/**
 * The export servers: the contacts server serves a user's contact list with an export
 * link; the messaging server, when that link is POSTed, fetches the list itself and
 * answers 303 to where it holds the copy.
 *
 * contacts server:  GET  /user/<user>/contacts              the list (seeded from the fixture)
 * messaging server: POST /user/<user>/import;t=<token>      export: fetch, store, 303 → /user/<user>
 *                   GET  /user/<user>                       what it holds for the user
 *                   POST /user/<user>/contacts              fallback upload: body = a contact list document
 *
 * The two servers share nothing but the token key (see token.ts); they may run in
 * separate processes given the same `SXD_TOKEN_KEY`.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseMediaType, XML_TYPE } from "../../lib/media-type.ts";
import { escapeXml } from "../../lib/xml.ts";
import type { ReferenceContext } from "../context.ts";
import {
  decodeUtf8,
  errorReply,
  HttpError,
  methodNotAllowed,
  type Reply,
  type Route,
  type ServerRequest,
  xmlReply,
} from "../http/reply.ts";
import { DEFAULT_STORAGE_LIMITS } from "../snapshots/store.ts";
import {
  type ContactsFixture,
  contactElement,
  contactFeedDocument,
  contactListDocument,
  contactsOfList,
  parseFixture,
  USER_NAME,
} from "./contact-list.ts";
import type { exportFaults } from "./faults.ts";
import { ContactStore, fetchContacts } from "./import-store.ts";
import { expectedToken, mintToken, TOKEN_LIFETIME_SECONDS, type TokenCheck, verifyToken } from "./token.ts";

type ExportFault = keyof typeof exportFaults;

export const DEFAULT_CONTACTS_FILE = fileURLToPath(new URL("./contacts.json", import.meta.url));
export const DEFAULT_BACKEND_TIMEOUT_MS = 3000;
export const EXPORT_REL = {
  standard: "https://sxd.example/rel/export-to-messaging",
  alternative: "urn:sxd:rel:copy-contacts-to-messaging",
};

/**
 * One key per process unless configured: servers started in the same process (the bundled
 * reference, the suite's outage server) accept each other's tokens without any setting.
 */
const processTokenKey = process.env.SXD_TOKEN_KEY || randomBytes(32).toString("base64url");

export function tokenKeyOf(context: ReferenceContext): string {
  return context.tokenKey ?? processTokenKey;
}

/** Whom a token is bound to: its user, unless a fault leaves the user out. */
function tokenSubject(context: ReferenceContext, user: string): string {
  return context.faults.has("exp-token-not-user-bound") ? "" : user;
}

export function loadContactsFixture(file = DEFAULT_CONTACTS_FILE): ContactsFixture {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new Error(`cannot read the contacts fixture ${file}: ${(error as Error).message}`);
  }
  const parsed = parseFixture(text, file);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

export function contactsRoutes(context: ReferenceContext): Route {
  const fixture = loadContactsFixture(context.contactsFile);
  const has = (fault: ExportFault) => context.faults.has(fault);
  return async (request) => {
    const match = /^\/user\/([^/;]+)\/contacts$/.exec(request.path);
    if (!match) return undefined;
    if (request.method !== "GET" && request.method !== "HEAD") throw methodNotAllowed(["GET", "HEAD"]);
    const user = userOf(match[1]);
    const contacts = fixture[user];
    if (!contacts) throw new HttpError(404, `no contacts are kept for user ${user}`);
    const standard = context.variant === "standard";
    const encoded = encodeURIComponent(user);
    const expiresAt = nowSeconds() + TOKEN_LIFETIME_SECONDS;
    const token = mintToken(tokenKeyOf(context), tokenSubject(context, user), expiresAt, context.variant);
    const self = `${context.urls.contacts}/user/${encoded}/contacts`;
    const body = contactListDocument(
      contacts.map(contactElement),
      {
        self: has("exp-no-self-link") ? undefined : has("exp-relative-self") ? `/user/${encoded}/contacts` : self,
        export: {
          rel: EXPORT_REL[context.variant],
          href: `${context.urls.messaging}/user/${encoded}/import${has("exp-link-query-token") ? "?" : ";"}t=${token}`,
          title: has("exp-link-no-title")
            ? undefined
            : standard
              ? "Export these contacts to the messaging server"
              : "Copy my address book to messaging",
        },
      },
      standard,
    );
    const type = has("exp-list-wrong-type") ? "text/plain;charset=UTF-8" : XML_TYPE;
    return { status: 200, headers: { "content-type": type, "cache-control": "no-store" }, body };
  };
}

export function messagingRoutes(context: ReferenceContext): Route {
  const limits = context.storage ?? DEFAULT_STORAGE_LIMITS;
  const store = new ContactStore({ maxUsers: limits.maxResources, maxBytes: limits.maxBytes });
  const has = (fault: ExportFault) => context.faults.has(fault);
  const resultUrl = (user: string) => `${context.urls.messaging}/user/${encodeURIComponent(user)}`;

  const listing = (user: string): Reply => {
    const held = store.get(user);
    if (!held) throw new HttpError(404, `nothing has been exported to user ${user} here yet`);
    return context.variant === "standard"
      ? {
          status: 200,
          headers: { "content-type": XML_TYPE },
          body: contactListDocument(held, { self: resultUrl(user) }, true),
        }
      : {
          status: 200,
          headers: { "content-type": "application/atom+xml;type=feed;charset=UTF-8" },
          body: contactFeedDocument(held, resultUrl(user), user),
        };
  };

  /** The reply that sends the client to what the messaging server now holds. */
  const seeOther = (user: string, status: number, location = resultUrl(user)): Reply => {
    const count = store.get(user)?.length ?? 0;
    const body = `<?xml version="1.0" encoding="UTF-8"?>\n<exported count="${count}" href="${escapeXml(location)}"/>\n`;
    return xmlReply(status, body, XML_TYPE, { location });
  };

  const exportContacts = async (request: ServerRequest, user: string, params: string): Promise<Reply> => {
    if (request.method !== "POST") throw methodNotAllowed(["POST"]);
    const token = tokenOf(params) ?? (has("exp-link-query-token") ? queryToken(request.target) : undefined);
    if (has("exp-refuses-every-export")) throw new HttpError(403, "exports are not accepted");
    const key = tokenKeyOf(context);
    const subject = tokenSubject(context, user);
    const check = verifyToken(key, subject, token, nowSeconds(), context.variant);
    const letThrough =
      has("exp-token-not-checked") ||
      (check.ok === false && check.reason === "malformed" && has("exp-token-shape-unchecked")) ||
      (check.ok === false &&
        check.reason === "invalid" &&
        has("exp-token-tail-unchecked") &&
        expectedToken(key, subject, token ?? "", context.variant)?.slice(0, -4) === token?.slice(0, -4));
    if (!check.ok && !letThrough) {
      throw new HttpError(context.variant === "standard" ? 403 : 404, refusal(check));
    }
    if (!has("exp-contacts-not-fetched")) {
      const fetched = await fetchContacts(context.urls.contacts, user, {
        timeoutMs: context.backendTimeoutMs ?? DEFAULT_BACKEND_TIMEOUT_MS,
      });
      // The upload's limits hold for an import too: past them, 507 and nothing stored.
      const refused = fetched.ok ? store.refusal(user, fetched.contacts) : undefined;
      if (refused !== undefined) throw new HttpError(507, refused);
      if (!fetched.ok) {
        if (has("exp-outage-drops-copy")) store.replace(user, []);
        if (has("exp-outage-no-error-body")) return { status: fetched.status };
        if (!has("exp-outage-303")) return errorReply(fetched.status, fetched.message, fetched.headers);
      } else if (has("exp-import-stores-nothing")) {
        // Fetched, answered 303 below, and forgotten.
      } else if (has("exp-duplicate-on-repeat")) {
        store.append(user, fetched.contacts);
      } else {
        store.replace(user, fetched.contacts);
      }
    }
    if (has("exp-body-required") && (await request.body()).length === 0) {
      throw new HttpError(400, "send the contacts in the request body");
    }
    // Under the faults that skip the import the 303 still leads somewhere.
    if (!store.get(user)) store.replace(user, []);
    const wrongLocation = `${context.urls.contacts}/user/${encodeURIComponent(user)}/contacts`;
    return seeOther(user, has("exp-302-not-303") ? 302 : 303, has("exp-wrong-location") ? wrongLocation : undefined);
  };

  const upload = async (request: ServerRequest, user: string): Promise<Reply> => {
    if (request.method !== "POST") throw methodNotAllowed(["POST"]);
    const subtype = parseMediaType(request.headers["content-type"])?.subtype;
    if (subtype !== "xml" && !subtype?.endsWith("+xml")) {
      throw new HttpError(415, "upload a contact list as application/xml");
    }
    const text = decodeUtf8(await request.body());
    if (text === undefined) throw new HttpError(400, "the upload is not UTF-8");
    const contacts = contactsOfList(text);
    if (!contacts.ok) throw new HttpError(400, `the upload is not a contact list: ${contacts.error}`);
    const refusal = store.refusal(user, contacts.value);
    if (refusal !== undefined) throw new HttpError(507, refusal);
    if (!has("exp-upload-ignored")) store.replace(user, contacts.value);
    else if (!store.get(user)) store.replace(user, []);
    return context.variant === "standard" ? seeOther(user, 303) : { status: 204 };
  };

  return async (request) => {
    const match = /^\/user\/([^/;]+)(?:\/(import|contacts)((?:;[^/]*)?))?$/.exec(request.path);
    if (!match) return undefined;
    const [, segment, action, params] = match;
    const user = userOf(segment);
    if (action === "import") return exportContacts(request, user, params);
    if (action === "contacts" && params === "") return upload(request, user);
    if (action === undefined) {
      if (request.method !== "GET" && request.method !== "HEAD") throw methodNotAllowed(["GET", "HEAD"]);
      return listing(user);
    }
    return undefined;
  };
}

function userOf(segment: string): string {
  let user: string;
  try {
    user = decodeURIComponent(segment);
  } catch {
    throw new HttpError(404, "the user name in the path is not valid percent-encoding");
  }
  if (!USER_NAME.test(user)) throw new HttpError(404, `no such user: ${user}`);
  return user;
}

/** The `t` parameter of `;t=<token>;…` path parameters. */
function tokenOf(params: string): string | undefined {
  for (const param of params.split(";")) {
    if (param.startsWith("t=")) return safeDecode(param.slice(2));
  }
  return undefined;
}

function queryToken(target: string): string | undefined {
  const at = target.indexOf("?");
  return at < 0 ? undefined : (new URLSearchParams(target.slice(at + 1)).get("t") ?? undefined);
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

function refusal(check: TokenCheck & { ok: false }): string {
  switch (check.reason) {
    case "missing":
      return "the export link carries no token (;t=); fetch the contact list again for a fresh link";
    case "expired":
      return "the export link has expired; fetch the contact list again for a fresh link";
    default:
      return "the export link's token is not valid for this user";
  }
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
