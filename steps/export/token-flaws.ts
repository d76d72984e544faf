/**
 * The flawed export links of EXP-6, and the fresh state each one is built on. Each flaw
 * changes the token, or the user it is used for, and nothing else. The link it changes is
 * read from the list after the control POST, so a server whose links are single-use gives
 * a link the control did not spend; a server that serves the spent link again is caught by
 * the check after the flawed POST: that same link, without the flaw, must still export.
 * A flaw changes the token as meant, its percent-escapes decoded (RFC 3986 §2.1), and the
 * changed token is escaped again as the link escaped it: a flawed link is always a URI
 * (never a `%3G`, which an HTTP stack refuses before the server's code sees the token).
 *
 *   const flawed = flawedLink("a random token", { href, user: "alice" });
 *   // { url: "http://m/user/alice/import;t=5f0c…" }
 */
import type { Answered } from "../../harness/evidence/exchange.ts";
import { percentDecoded, percentEncoded } from "../../lib/percent.ts";
import { isAbsoluteUri, isWellFormedUri } from "../../lib/uri.ts";
import { fail } from "../support/expect.ts";
import { forgedLike, forgedTail, randomToken } from "../support/tokens.ts";
import type { SxdWorld } from "../support/world.ts";
import { type ExportState, exported, linkOf } from "./checks.ts";
import { findExportLink, readContactList } from "./contact-list.ts";

export interface LinkToFlaw {
  href: string;
  user: string;
  /** A second user the contacts server knows (export.otherUser). */
  otherUser?: string;
}

export type FlawedLink = { url: string; otherUser?: string } | { notRun: string };

/** The token parameter wherever the link carries it (`;t=`, `?t=`, `&t=`): a link of another shape is EXP-3's failure. */
const TOKEN_PARAMETER = /([;?&])t=([^;?&#/]*)/;

/** A flaw of the token's value: the link with its token replaced by `change(token)`, "" leaving the parameter out. */
function ofToken(change: (token: string) => string) {
  return (link: LinkToFlaw): FlawedLink => ({ url: withToken(link.href, change) });
}

/**
 * The link with its token replaced by `change(token)`, the token as meant (escapes decoded)
 * and the change escaped again as the link escapes its token; "" leaves the parameter out.
 */
export function withToken(href: string, change: (token: string) => string): string {
  const found = tokenParameterOf(href);
  const value = change(percentDecoded(found[2]));
  const parameter = value === "" ? "" : `${found[1]}t=${percentEncoded(value, found[2])}`;
  const url = `${href.slice(0, found.index)}${parameter}${href.slice(found.index + found[0].length)}`;
  if (isWellFormedUri(href) && !isWellFormedUri(url))
    throw new Error(`a changed export link that is no URI: ${url}, from ${href} (a bug in the suite)`);
  return url;
}

/** The link's token as meant: its percent-escapes decoded, bytes that are no UTF-8 kept (lib/percent.ts). */
export function tokenOf(href: string): string {
  return percentDecoded(tokenParameterOf(href)[2]);
}

function tokenParameterOf(href: string): RegExpExecArray {
  const found = TOKEN_PARAMETER.exec(href);
  if (!found) fail("an export link carrying a token parameter t", `href ${href}`);
  return found;
}

/** The middle character changed: the ends of an encoded value may carry bits a decoder ignores. */
function altered(token: string): string {
  const middle = Math.floor(token.length / 2);
  return `${token.slice(0, middle)}${token[middle] === "A" ? "B" : "A"}${token.slice(middle + 1)}`;
}

/** The user's token on a second user's import address; a user nobody knows may be refused for that alone. */
function onOtherUsersAddress(link: LinkToFlaw): FlawedLink {
  if (!link.otherUser) return { notRun: "state export.otherUser to check that a token is bound to its user" };
  const own = `/user/${encodeURIComponent(link.user)}/`;
  if (!link.href.includes(own))
    return {
      notRun: `the export link ${link.href} does not carry the user's path ${own} (EXP-3 checks its shape), so there is no import address to put another user in`,
    };
  return { url: link.href.replace(own, `/user/${encodeURIComponent(link.otherUser)}/`), otherUser: link.otherUser };
}

/** The flaws by the names the features give them. */
export const TOKEN_FLAWS: Record<string, (link: LinkToFlaw) => FlawedLink> = {
  "no token": ofToken(() => ""),
  "an altered token": ofToken(altered),
  "a forged token of its shape": ofToken(forgedLike),
  "its token with the tail changed": ofToken(forgedTail),
  "a random token": ofToken(randomToken),
  "its token on another user's import address": onOtherUsersAddress,
};

export function flawedLink(flaw: string, link: LinkToFlaw): FlawedLink {
  const build = TOKEN_FLAWS[flaw];
  if (!build) throw new Error(`unknown token flaw "${flaw}"`);
  return build(link);
}

/** What a flawed POST was built on, and what it got. */
export interface FlawedPost {
  /** The link as served that the flaw changed. */
  base: string;
  /** Whether `base` is the link the control POST already used (the list served no other). */
  reused: boolean;
  reply: Answered;
}

/**
 * The link for the flawed POST, read from the list after the control: a server that hands
 * out a link per read, or a new one once the last was spent, gives one the control did not
 * use. Where the list cannot be read again, the control's own link.
 */
export async function linkAfterControl(
  world: SxdWorld,
  state: ExportState,
): Promise<{ href: string } | { notRun: string }> {
  const used = linkOf(state).href;
  const again = await world.http.send("GET", state.listUrl, {
    headers: { accept: "application/xml" },
    note: "the list read again after the control, for a link the control did not use",
  });
  if (again.response.status !== 200) return { href: used };
  const list = readContactList(again.response.body);
  const link = list.ok ? findExportLink(list.value.links, state.messagingUrl, world.target.export.rel) : undefined;
  // What the list offers on every read is EXP-1's and EXP-3's to judge; here it only leaves the flaw without a link.
  if (link?.href === undefined || !isAbsoluteUri(link.href))
    return {
      notRun: `the list read again after the control (status 200) offers no usable export link${list.ok ? "" : ` (${list.error})`}, so the flawed POST has no fresh link: a list offers its link on every read (see EXP-1 and EXP-3)`,
    };
  return { href: link.href };
}

/**
 * After a refused flawed POST, the same POST without the flaw must still export: then the
 * state the flaw was sent on was fresh, and the refusal was the flaw's. Returns why not.
 */
export async function unflawedStillExports(world: SxdWorld, flawed: FlawedPost): Promise<string | undefined> {
  const after = await world.http.send("POST", flawed.base, {
    note: "the same POST without the flaw, to show that the link was still good when the flawed one was refused",
  });
  if (exported(after.response.status)) return undefined;
  const status = after.response.status;
  return flawed.reused
    ? `the list served again the link the control had used, and it no longer exports (status ${status}): with single-use links and one link per user, there is no fresh link for the flawed POST`
    : `the same POST without the flaw was refused right after the flawed one (status ${status}), so the refusal may not be the token's`;
}
