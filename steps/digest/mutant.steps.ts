/**
 * Steps of the mutated credentials (DIG-6, DIG-12): the accepted credentials, answered again
 * over a fresh challenge for each mutant and then mutated (lib/digest-mutants.ts), so that the
 * nonce of each mutant is as fresh as the control's was and only the mutation differs.
 */
import type { Answered } from "../../harness/evidence/exchange.ts";
import { TransportError } from "../../harness/judging/step-errors.ts";
import { applies, type Mutation, mutate, mutationId, parseMutationId } from "../../lib/digest-mutants.ts";
import { Given, Then, When } from "../support/cucumber.ts";
import { fail } from "../support/expect.ts";
import type { SxdWorld } from "../support/world.ts";
import { answeringLike, CONTROL_REFUSED, form, needLogin } from "./checks.ts";
import { mutationBase } from "./mutants.ts";
import { challengeFrom, granted, type Login, sendAuthorization, state } from "./session.ts";

interface MutantReply {
  id: string;
  what: string;
  reply?: Answered;
  /** The connection ended or timed out without a reply. */
  dropped?: string;
}

const sentMutants = new WeakMap<SxdWorld, MutantReply[]>();

/** The mutant's Authorization over a fresh challenge, built on the login the control made. */
export async function sendMutant(world: SxdWorld, login: Login, mutations: readonly Mutation[]) {
  await challengeFrom(world);
  const answering = answeringLike(world, login);
  const base = mutationBase(answering);
  const inapplicable = mutations.find((m) => !applies(base, m));
  if (inapplicable) return { inapplicable: mutationId(inapplicable) };
  const mutant = mutate(base, mutations);
  try {
    return { mutant, reply: await sendAuthorization(world, mutant.authorization, login.body) };
  } catch (error) {
    if (!(error instanceof TransportError)) throw error;
    return { mutant, dropped: error.message };
  }
}

Given("the client was granted access with the strongest algorithm offered", async function (this: SxdWorld) {
  const login = await needLogin(this, CONTROL_REFUSED);
  if (login === "skipped") return login;
  state(this).controls.push(login);
  return undefined;
});

When(
  "the client answers a new challenge with each of these mutants of the accepted credentials:",
  async function (this: SxdWorld, table: { hashes(): Array<Record<string, string>> }) {
    const [login] = state(this).controls;
    if (!login) throw new Error("no login was granted before the mutants in this scenario");
    const replies: MutantReply[] = [];
    for (const row of table.hashes()) {
      const id = row.mutant ?? "";
      const mutation = parseMutationId(id);
      if (!mutation) throw new Error(`unknown credential mutant "${id}"`);
      // A mutant of a directive the credentials lack (qop, nc, cnonce without qop) is left out.
      const sent = await sendMutant(this, login, [mutation]);
      if (!("inapplicable" in sent)) replies.push({ id, what: row["what is sent"] ?? id, ...sent });
    }
    sentMutants.set(this, replies);
    if (replies.length === 0)
      return this.notApplicable(`none of the mutants applies to the credentials the server took (${form(login)})`);
    return undefined;
  },
);

function mutantReplies(world: SxdWorld): MutantReply[] {
  const replies = sentMutants.get(world);
  if (!replies) throw new Error("no mutant was sent before in this scenario");
  return replies;
}

/** Fails once, naming every mutant that broke the rule, with the first one's exchange. */
function expectNone(broken: MutantReply[], expected: string): void {
  if (broken.length === 0) return;
  const got = broken
    .map((m) => `${m.id} (${m.what}): ${m.reply ? `status ${m.reply.response.status}` : `no reply, ${m.dropped}`}`)
    .join("; ");
  fail(expected, got, broken.find((m) => m.reply)?.reply);
}

Then("none of these mutants gets access", function (this: SxdWorld) {
  const login = state(this).controls[0];
  expectNone(
    mutantReplies(this).filter((m) => m.reply && granted(m.reply)),
    `no access for credentials that prove something else, where the accepted ones (${login?.algorithm}) got in`,
  );
});

Then("each of these mutants is refused with 400 or 401", function (this: SxdWorld) {
  expectNone(
    mutantReplies(this).filter((m) => !m.reply || ![400, 401].includes(m.reply.response.status)),
    "400 or 401 for each malformed mutant of credentials that got in (a 5xx or a dropped connection is a crash)",
  );
});
