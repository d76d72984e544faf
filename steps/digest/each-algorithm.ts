/**
 * A rule binds every algorithm the server offers: a row that builds on a login logs in with
 * each algorithm the challenge offers (SHA-256 and MD5, their -sess forms, SHA-512-256), each
 * over a challenge of its own, and judges each. What is not judged is said: an offered
 * algorithm sxd's client cannot compute is noted as not tried (the suite's limit, never the
 * target's failure), and one whose valid login was refused as not judged (that failure is
 * DIG-4's).
 */
import type { Answered } from "../../harness/evidence/exchange.ts";
import type { Algorithm, Qop } from "../../lib/digest-math.ts";
import type { SxdWorld } from "../support/world.ts";
import { answerableAlgorithms, chooseChallenge, unanswerableAlgorithms } from "./digest-client.ts";
import { challengeFrom, type Login, type LoginRequest, logIn, state, unanswerableReason } from "./session.ts";

/** One algorithm's login: its reply, and the login where it got in. */
export interface Tried {
  algorithm: Algorithm;
  reply: Answered;
  login?: Login;
}

/**
 * The algorithms of a fresh challenge that sxd answers, those offering `qop` where one is asked
 * for; the others offered are noted in the scenario, each with why it is not tried.
 */
async function algorithmsToTry(
  world: SxdWorld,
  qop: Qop | undefined,
  among?: ReadonlySet<Algorithm>,
): Promise<Algorithm[]> {
  await challengeFrom(world);
  const { challenges } = state(world);
  const unanswerable = unanswerableAlgorithms(challenges);
  if (unanswerable.length > 0 && unanswerable.length < challenges.length)
    world.observe(
      `not tried with ${unanswerable.join(", ")}: offered, but no algorithm RFC 7616 registers, the ones sxd's digest client computes`,
    );
  // Those whose plain login was refused (DIG-4's failure, noted where it was) are left out.
  const algorithms = answerableAlgorithms(challenges).filter((a) => among === undefined || among.has(a));
  const offering = algorithms.filter(
    (a) => qop === undefined || chooseChallenge(challenges, a)?.challenge.qops.includes(qop),
  );
  const without = algorithms.filter((a) => !offering.includes(a));
  if (without.length > 0 && offering.length > 0)
    world.observe(`not tried with ${without.join(", ")}: its challenge does not offer qop=${qop}`);
  return offering;
}

/**
 * Valid credentials of each algorithm offered (of those `among`, where given), each answering a
 * challenge of its own; not run where the server offers none sxd answers, not applicable where
 * none offers the qop asked for.
 */
export async function logInWithEach(
  world: SxdWorld,
  wanted: Omit<LoginRequest, "algorithm"> = {},
  among?: ReadonlySet<Algorithm>,
): Promise<Tried[] | "skipped"> {
  const algorithms = await algorithmsToTry(world, wanted.qop, among);
  if (algorithms.length === 0)
    return answerableAlgorithms(state(world).challenges).length === 0
      ? world.notRun(unanswerableReason(state(world).challenges))
      : world.notApplicable(`the challenge does not offer qop=${wanted.qop}`);
  const tried: Tried[] = [];
  for (const algorithm of algorithms) {
    const result = await logIn(world, { ...wanted, algorithm });
    // The server took the algorithm off its offer between two challenges: nothing to answer.
    if (result.kind === "unanswerable") continue;
    tried.push(
      result.kind === "granted"
        ? { algorithm, reply: result.login.reply, login: result.login }
        : { algorithm, reply: result.reply },
    );
  }
  return tried;
}

/** The attempts DIG-4 and DIG-8 judge: each algorithm's valid credentials, which must get in. */
export async function tryEach(
  world: SxdWorld,
  wanted: Omit<LoginRequest, "algorithm"> = {},
  among?: ReadonlySet<Algorithm>,
): Promise<"skipped" | undefined> {
  const tried = await logInWithEach(world, wanted, among);
  if (tried === "skipped") return tried;
  state(world).tried.push(...tried.map(({ algorithm, reply }) => ({ algorithm, qop: wanted.qop, reply })));
  return undefined;
}

/**
 * The logins of each algorithm offered that a scenario builds on: not run with `reason` where
 * none got in; an algorithm whose login was refused is named as not judged.
 */
export async function needLogins(
  world: SxdWorld,
  reason: string,
  wanted: Omit<LoginRequest, "algorithm"> = {},
): Promise<Login[] | "skipped"> {
  const tried = await logInWithEach(world, wanted);
  if (tried === "skipped") return tried;
  const logins = tried.flatMap((t) => t.login ?? []);
  const refused = tried.filter((t) => !t.login).map((t) => `${t.reply.response.status} with ${t.algorithm}`);
  if (logins.length === 0) return world.notRun(`${reason} (valid credentials got status ${refused.join(", ")})`);
  if (refused.length > 0)
    world.observe(`not judged with each algorithm: valid credentials got status ${refused.join(", ")} (see DIG-4)`);
  return logins;
}
