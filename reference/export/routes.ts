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
 * separate processes given the same `SXD_TOKEN_KEY`. Where a fault mode bends a rule they ask
 * the policy (faults.ts), and where the spec leaves a choice open, the variant's choices (choices.ts).
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseMediaType, XML_TYPE } from "../../lib/media-type.ts";
import { percentDecoded, percentEncoded } from "../../lib/percent.ts";
import { escapeXml } from "../../lib/xml.ts";
import type { ExportUsers, ReferenceContext } from "../context.ts";
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
import { backendRequestFor, DEFAULT_BACKEND, refusedByContacts } from "./backend.ts";
import { recordingFetcher } from "./backend-record.ts";
import { exportChoices } from "./choices.ts";
import {
  type ContactsFixture,
  contactElement,
  contactFeedDocument,
  contactListDocument,
  contactsOfList,
  longListsFixture,
  parseFixture,
  USER_NAME,
} from "./contact-list.ts";
import { type ExportPolicy, exportPolicy } from "./faults.ts";
import { ContactStore, compareEachWithEarlier, fetchContacts, UnserialisedImports } from "./import-store.ts";
import { expectedToken, TOKEN_LIFETIME_SECONDS, type TokenCheck } from "./token.ts";
import { checkToken, issueToken, type TokenSetting } from "./token-schemes.ts";

export const DEFAULT_CONTACTS_FILE = fileURLToPath(new URL("./contacts.json", import.meta.url));
export const DEFAULT_BACKEND_TIMEOUT_MS = 3000;

/**
 * One key per process unless configured: servers started in the same process (the bundled
 * reference, the suite's outage server) accept each other's tokens without any setting.
 */
const processTokenKey = process.env.SXD_TOKEN_KEY || randomBytes(32).toString("base64url");

export function tokenKeyOf(context: ReferenceContext): string {
  return context.tokenKey ?? processTokenKey;
}

/** How this context's servers mint and check tokens. */
function tokenSetting(context: ReferenceContext, policy: ExportPolicy): TokenSetting {
  return { scheme: policy.tokenScheme, key: tokenKeyOf(context), format: exportChoices(context).tokenFormat };
}

/** Whom a token is bound to: its user, unless the policy leaves the user out. */
function tokenSubject(policy: ExportPolicy, user: string): string {
  return policy.bindsTokenToUser ? user : "";
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

/**
 * The lists the contacts server serves: the fixture's and the long lists asked for or, where a
 * description names the users (exportUsers), the fixture's first two lists under those names.
 */
function servedLists(context: ReferenceContext): ContactsFixture {
  const fixture = loadContactsFixture(context.contactsFile);
  const named = context.exportUsers;
  if (!named) return { ...fixture, ...longListsFixture(context.longLists ?? []) };
  const [first = [], second = []] = Object.values(fixture);
  return { ...(named.otherUser === undefined ? {} : { [named.otherUser]: second }), [named.user]: first };
}

export function contactsRoutes(context: ReferenceContext): Route {
  const fixture = servedLists(context);
  const policy = exportPolicy(context.faults);
  const choices = exportChoices(context);
  return async (request) => {
    const match = /^\/user\/([^/;]+)\/contacts$/.exec(request.path);
    if (!match) return undefined;
    if (request.method !== "GET" && request.method !== "HEAD") throw methodNotAllowed(["GET", "HEAD"]);
    const user = userOf(match[1], context.exportUsers);
    const contacts = Object.hasOwn(fixture, user) ? fixture[user] : undefined;
    if (!contacts) throw new HttpError(404, `no contacts are kept for user ${user}`);
    const encoded = encodeURIComponent(user);
    const expiresAt = nowSeconds() + TOKEN_LIFETIME_SECONDS;
    const token = issueToken(tokenSetting(context, policy), tokenSubject(policy, user), expiresAt);
    const selfPath = `/user/${encoded}/contacts`;
    const self = { absolute: `${context.urls.contacts}${selfPath}`, relative: selfPath, none: undefined };
    const body = contactListDocument(
      contacts.map(contactElement),
      {
        self: self[policy.selfLink],
        export: {
          rel: context.exportRel ?? choices.exportRel,
          href: `${context.urls.messaging}/user/${encoded}/import${policy.tokenIn === "query" ? "?" : ";"}t=${percentEncoded(token)}`,
          title: policy.exportLinkHasTitle ? choices.exportTitle : undefined,
        },
      },
      choices.atomPrefixed,
    );
    return { status: 200, headers: { "content-type": policy.listType, "cache-control": "no-store" }, body };
  };
}

export function messagingRoutes(context: ReferenceContext): Route {
  const limits = context.storage ?? DEFAULT_STORAGE_LIMITS;
  const store = new ContactStore({ maxUsers: limits.maxResources, maxBytes: limits.maxBytes });
  const unserialised = new UnserialisedImports(store);
  const policy = exportPolicy(context.faults);
  const choices = exportChoices(context);
  const resultUrl = (user: string) => `${context.urls.messaging}/user/${encodeURIComponent(user)}`;

  const listing = (user: string): Reply => {
    const held = store.get(user);
    if (!held) throw new HttpError(404, `nothing has been exported to user ${user} here yet`);
    return choices.listing === "contact-list"
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
    const token = tokenOf(params) ?? (policy.tokenIn === "query" ? queryToken(request.target) : undefined);
    if (policy.refusesEveryExport) throw new HttpError(403, "exports are not accepted");
    const key = tokenKeyOf(context);
    const subject = tokenSubject(policy, user);
    const check = checkToken(tokenSetting(context, policy), subject, token, nowSeconds());
    const sameBeforeTail = () =>
      expectedToken(key, subject, token ?? "", choices.tokenFormat)?.slice(0, -4) === token?.slice(0, -4);
    const letThrough =
      context.tokenCheckedByContactsServer === true ||
      !policy.checksToken ||
      (check.ok === false && check.reason === "malformed" && !policy.checksTokenShape) ||
      (check.ok === false && check.reason === "invalid" && !policy.checksTokenTail && sameBeforeTail());
    if (!check.ok && !letThrough) {
      throw new HttpError(choices.refusedTokenStatus, refusal(check));
    }
    if (policy.fetchesContacts) {
      const fetched = await fetchContacts(context.urls.contacts, user, {
        timeoutMs: context.backendTimeoutMs ?? DEFAULT_BACKEND_TIMEOUT_MS,
        fetcher: context.onBackendSent && recordingFetcher(context.onBackendSent, request),
        ...backendRequestFor(context.backend ?? DEFAULT_BACKEND, user, token),
      });
      // The upload's limits hold for an import too: past them, 507 and nothing stored.
      const refused = fetched.ok ? store.refusal(user, fetched.contacts) : undefined;
      if (refused !== undefined) throw new HttpError(507, refused);
      if (fetched.ok && policy.importComparesEachHeld) await compareEachWithEarlier(fetched.contacts);
      if (!fetched.ok && context.tokenCheckedByContactsServer) refusedByContacts(fetched.backendStatus);
      if (!fetched.ok) {
        if (policy.outageDropsCopy) store.replace(user, []);
        if (policy.outageReply === "bare-status") return { status: fetched.status };
        if (policy.outageReply === "error-body") return errorReply(fetched.status, fetched.message, fetched.headers);
      } else if (!policy.serialisesImports) {
        await unserialised.import(user, fetched.contacts);
      } else if (policy.importStores === "append") {
        store.append(user, fetched.contacts);
      } else if (policy.importStores === "replace") {
        store.replace(user, fetched.contacts);
      }
    }
    if (policy.requiresBody && (await request.body()).length === 0) {
      throw new HttpError(400, "send the contacts in the request body");
    }
    // Where the policy skips the import the 303 still leads somewhere.
    if (!store.get(user)) store.replace(user, []);
    const contactsList = `${context.urls.contacts}/user/${encodeURIComponent(user)}/contacts`;
    return seeOther(user, policy.exportStatus, policy.exportLocation === "contacts-list" ? contactsList : undefined);
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
    if (policy.storesUpload) store.replace(user, contacts.value);
    else if (!store.get(user)) store.replace(user, []);
    return choices.uploadReply === "see-other" ? seeOther(user, 303) : { status: 204 };
  };

  return async (request) => {
    const match = /^\/user\/([^/;]+)(?:\/(import|contacts)((?:;[^/]*)?))?$/.exec(request.path);
    if (!match) return undefined;
    if (choices.refusesBrokenEscapes && /%(?![0-9A-Fa-f]{2})/.test(request.target))
      throw new HttpError(400, "the request target has a % that starts no escape of two hex digits (RFC 3986 §2.1)");
    const [, segment, action, params] = match;
    const user = userOf(segment, context.exportUsers);
    if (action === "import") return exportContacts(request, user, params);
    if (action === "contacts" && params === "") return upload(request, user);
    if (action === undefined) {
      if (request.method !== "GET" && request.method !== "HEAD") throw methodNotAllowed(["GET", "HEAD"]);
      return listing(user);
    }
    return undefined;
  };
}

/** The user a path segment names: a plain name, or one the description names (exportUsers). */
function userOf(segment: string, named: ExportUsers | undefined): string {
  let user: string;
  try {
    user = decodeURIComponent(segment);
  } catch {
    throw new HttpError(404, "the user name in the path is not valid percent-encoding");
  }
  if (!USER_NAME.test(user) && user !== named?.user && user !== named?.otherUser)
    throw new HttpError(404, `no such user: ${user}`);
  return user;
}

/** The `t` parameter of `;t=<token>;…` path parameters, as meant: bytes that are not UTF-8 stay bytes (lib/percent.ts). */
function tokenOf(params: string): string | undefined {
  for (const param of params.split(";")) {
    if (param.startsWith("t=")) return percentDecoded(param.slice(2));
  }
  return undefined;
}

function queryToken(target: string): string | undefined {
  const at = target.indexOf("?");
  return at < 0 ? undefined : (new URLSearchParams(target.slice(at + 1)).get("t") ?? undefined);
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

/**
 * The contacts server's check of the token a backend request presents (backend.ts): the same
 * check the messaging server makes of the link; the reason where it fails.
 */
export function backendTokenCheck(
  context: ReferenceContext,
): (user: string, token: string | undefined) => string | undefined {
  const policy = exportPolicy(context.faults);
  const setting = tokenSetting(context, policy);
  return (user, token) => {
    const check = checkToken(setting, tokenSubject(policy, user), token, nowSeconds());
    return check.ok ? undefined : refusal(check);
  };
}
