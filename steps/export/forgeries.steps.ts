/**
 * Steps of tokens forged from what a served token shows (EXP-6). Each forgery is made from a
 * token read after the last POST that exported (the control), so a single-use or per-read
 * token is fresh; after a forged POST is refused, the link it was made from must still export,
 * which is the control of the next forgery. A forged POST that exports, or that makes the
 * messaging server import for the other user, fails the row with its exchange.
 */
import type { Answered } from "../../harness/evidence/exchange.ts";
import { type Forgery, type ForgeryKind, forgeriesOf, shownBy } from "../../lib/token-forgeries.ts";
import { Then, When } from "../support/cucumber.ts";
import { expectThat } from "../support/expect.ts";
import type { SxdWorld } from "../support/world.ts";
import { type ExportState, exported, type ResultReading, stateOf } from "./checks.ts";
import { readResult, resultAddress } from "./result.ts";
import { linkAfterControl, tokenOf, unflawedStillExports, withToken } from "./token-flaws.ts";

/** The forgeries by the names the feature gives them. */
const FORGERIES: Record<string, ForgeryKind> = {
  "the user's name in it changed to the other user's": "other-user",
  "a number or time in it one step up": "number-up",
  "a number or time in it one step down": "number-down",
  "a JWT with alg none and no signature": "jwt-alg-none",
  "a JWT with its signature dropped": "jwt-unsigned",
  "a JWT with its subject changed to the other user": "jwt-other-subject",
  "a JWT with a later expiry": "jwt-later-expiry",
  "the token with its tail cut": "tail-cut",
};

/** What a kind of forgery changes, where a token may not show it. */
const NEEDS: Record<ForgeryKind, string> = {
  "other-user": "user name",
  "number-up": "number",
  "number-down": "number",
  "jwt-alg-none": "JWT",
  "jwt-unsigned": "JWT",
  "jwt-other-subject": "JWT claim naming the user",
  "jwt-later-expiry": "JWT expiry (exp)",
  "tail-cut": "characters",
};

const NEEDS_OTHER_USER: ReadonlySet<ForgeryKind> = new Set(["other-user", "jwt-other-subject"]);

/** What the forged POSTs of a scenario got: the first that got in, if one did. */
interface ForgedTries {
  tried: number;
  admitted?: { forgery: Forgery; reply: Answered; imported?: string };
}

const tries = new WeakMap<SxdWorld, ForgedTries>();

When(
  new RegExp(`^the client POSTs tokens forged from a fresh export link: (${Object.keys(FORGERIES).join("|")})$`),
  async function (this: SxdWorld, name: string) {
    const kind = FORGERIES[name];
    const state = stateOf(this);
    const users = { user: state.user, otherUser: this.target.export.otherUser };
    if (NEEDS_OTHER_USER.has(kind) && users.otherUser === undefined)
      return this.notRun("state export.otherUser to check a token forged for another user");
    const done: ForgedTries = { tried: 0 };
    tries.set(this, done);
    for (let i = 0; ; i++) {
      const fresh = await linkAfterControl(this, state);
      if ("notRun" in fresh) return this.notRun(fresh.notRun);
      const token = tokenOf(fresh.href);
      const forgery = forgeriesOf(kind, token, users)[i];
      if (forgery === undefined && i === 0)
        return this.notApplicable(
          `nothing to forge: the served token shows no ${NEEDS[kind]} (it shows ${shownBy(token)})`,
        );
      if (forgery === undefined) return undefined;
      const url = forgedUrl(fresh.href, forgery, state, users.otherUser);
      const before = forgery.forOtherUser ? await otherUsersCopy(this, state) : undefined;
      const reply = await this.http.send("POST", url, {
        note: `a token forged from the served one: ${forgery.detail}`,
      });
      done.tried++;
      const imported = before && (await importedMeanwhile(this, state, before));
      if (exported(reply.response.status) || imported !== undefined) {
        done.admitted = { forgery, reply, imported };
        return undefined;
      }
      const problem = await unflawedStillExports(this, { base: fresh.href, reused: false, reply });
      if (problem !== undefined) return this.notRun(problem);
    }
  },
);

Then(
  "no forged token exported: each was neither answered 303 nor a success, nor imported anything",
  function (this: SxdWorld) {
    const done = tries.get(this);
    if (!done) throw new Error("no forged POST was sent in this scenario");
    const admitted = done.admitted;
    if (!admitted) return;
    const { forgery, reply, imported } = admitted;
    const status = reply.response.status;
    expectThat(
      !exported(status) && imported === undefined,
      `a token forged from the served one (${forgery.what}) to export nothing: neither 303 nor 2xx, no import`,
      imported ?? `status ${status}`,
      reply,
    );
  },
);

/** The fresh link with the forged token (escaped as the link escapes its own) and, where it names the other user, that user's address. */
function forgedUrl(href: string, forgery: Forgery, state: ExportState, otherUser: string | undefined): string {
  const url = withToken(href, () => forgery.token);
  if (!forgery.forOtherUser || otherUser === undefined) return url;
  return url.replace(`/user/${encodeURIComponent(state.user)}/`, `/user/${encodeURIComponent(otherUser)}/`);
}

/** What the messaging server shows for the other user, before a forgery names that user. */
function otherUsersCopy(world: SxdWorld, state: ExportState): Promise<ResultReading> {
  return readResult(world, resultAddress(world, state, state.messagingUrl, state.otherUser ?? otherUserOf(world)));
}

function otherUserOf(world: SxdWorld): string {
  const other = world.target.export.otherUser;
  if (other === undefined) throw new Error("a forgery for the other user without export.otherUser");
  return other;
}

/** Whether the other user's copy went from nothing to something, or changed: an import the forged POST made. */
async function importedMeanwhile(
  world: SxdWorld,
  state: ExportState,
  before: ResultReading,
): Promise<string | undefined> {
  if (before.kind === "unreadable") return undefined;
  const after = await otherUsersCopy(world, state);
  if (after.kind !== "held") return undefined;
  const then = before.kind === "held" ? before.contacts : [];
  const same = then.length === after.contacts.length && then.every((c, i) => c === after.contacts[i]);
  return same
    ? undefined
    : `the messaging server holds ${after.contacts.length} contacts for ${otherUserOf(world)} at ${after.exchange.url} after the forged POST, ${then.length} before`;
}
