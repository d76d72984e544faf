/**
 * Steps of the mutated credentials (DIG-6, DIG-12): the credentials each algorithm offered got
 * in with, answered again over a challenge of their own for each mutant and then mutated
 * (lib/digest-mutants.ts), so that the nonce of each mutant is as fresh as the control's was and
 * only the mutation differs.
 */
import type { Answered } from "../../harness/evidence/exchange.ts";
import { TransportError } from "../../harness/judging/step-errors.ts";
import { applies, type Mutation, mutate, mutationId, parseMutationId } from "../../lib/digest-mutants.ts";
import { Then, When } from "../support/cucumber.ts";
import { fail } from "../support/expect.ts";
import type { SxdWorld } from "../support/world.ts";
import { answeringLike, challengeOfItsOwn, form } from "./checks.ts";
import { mutationBase } from "./mutants.ts";
import { granted, type Login, sendAuthorization, state } from "./session.ts";

interface MutantReply {
  id: string;
  what: string;
  /** The login the mutant was built on. */
  login: Login;
  reply?: Answered;
  /** The connection ended or timed out without a reply. */
  dropped?: string;
}

const sentMutants = new WeakMap<SxdWorld, MutantReply[]>();

/** The mutant's Authorization over a challenge of its own, built on the login the control made. */
async function sendMutant(world: SxdWorld, login: Login, mutations: readonly Mutation[]) {
  await challengeOfItsOwn(world, login.algorithm);
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

When(
  "the client answers a new challenge with each of these mutants of the accepted credentials:",
  async function (this: SxdWorld, table: { hashes(): Array<Record<string, string>> }) {
    const { controls } = state(this);
    if (controls.length === 0) throw new Error("no login was granted before the mutants in this scenario");
    const replies: MutantReply[] = [];
    for (const row of table.hashes()) {
      const id = row.mutant ?? "";
      const mutation = parseMutationId(id);
      if (!mutation) throw new Error(`unknown credential mutant "${id}"`);
      // Each mutant of each algorithm's credentials; one of a directive they lack (qop, nc,
      // cnonce without qop) is left out.
      for (const login of controls) {
        const sent = await sendMutant(this, login, [mutation]);
        if (!("inapplicable" in sent)) replies.push({ id, what: row["what is sent"] ?? id, login, ...sent });
      }
    }
    sentMutants.set(this, replies);
    if (replies.length === 0)
      return this.notApplicable(
        `none of the mutants applies to the credentials the server took (${controls.map(form).join("; ")})`,
      );
    return undefined;
  },
);

function mutantReplies(world: SxdWorld): MutantReply[] {
  const replies = sentMutants.get(world);
  if (!replies) throw new Error("no mutant was sent before in this scenario");
  return replies;
}

/**
 * Fails once, naming every mutant that broke the rule with the algorithms whose credentials it
 * was built on, with the first one's exchange.
 */
function expectNone(broken: MutantReply[], expected: string): void {
  if (broken.length === 0) return;
  const byMutant = new Map<string, MutantReply[]>();
  for (const m of broken) byMutant.set(m.id, [...(byMutant.get(m.id) ?? []), m]);
  const got = [...byMutant.values()]
    .map((same) => {
      const outcomes = same.map(
        (m) => `${m.reply ? `status ${m.reply.response.status}` : `no reply, ${m.dropped}`} with ${m.login.algorithm}`,
      );
      return `${same[0].id} (${same[0].what}): ${outcomes.join(", ")}`;
    })
    .join("; ");
  fail(expected, got, broken.find((m) => m.reply)?.reply);
}

Then("none of these mutants gets access", function (this: SxdWorld) {
  const algorithms = state(this).controls.map((login) => login.algorithm);
  expectNone(
    mutantReplies(this).filter((m) => m.reply && granted(m.reply)),
    `no access for credentials that prove something else, where the accepted ones (${algorithms.join(", ")}) got in`,
  );
});

Then("each of these mutants is refused with 400 or 401", function (this: SxdWorld) {
  expectNone(
    mutantReplies(this).filter((m) => !m.reply || ![400, 401].includes(m.reply.response.status)),
    "400 or 401 for each malformed mutant of credentials that got in (a 5xx or a dropped connection is a crash)",
  );
});
