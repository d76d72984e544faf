/**
 * The digest LIM cases (ROWS.md, LIM): what a challenge and a login cost after K challenges
 * nobody answered (LIM-4: a server that logs every nonce it issues and scans the log grows with
 * K, one whose nonces carry their own proof does not), whether a nonce issued before them still
 * gets in (or is refused with stale=true, as good: the client asks again without its user), and
 * how many logins a second C clients
 * at once get (LIM-7). A login is a challenge, then the request answered with the description's
 * user; RFC 7616's formula, the strongest algorithm offered.
 */

import { stated, unstatedReason } from "../../harness/description/target.ts";
import type { Answered } from "../../harness/evidence/exchange.ts";
import { answerOf, judged, type LimitCase, type LimitContext, UnexpectedAnswer } from "../../harness/limits/case.ts";
import { LimitClient } from "../support/limit-client.ts";
import { answerChallenge, authorizationOf, chooseChallenge, digestChallenges } from "./digest-client.ts";

/** Challenges sent at once while the log is filled. */
const FLOOD_AT_ONCE = 8;
/** Challenges taken before the flood, one answered after each size: a nonce is answered once. */
const OLD_NONCES = 8;

export function limitCases(context: LimitContext): LimitCase[] {
  return [nonceLog(context), loginsAtOnce(context)];
}

/** A client of the case's, logging in as the description's user. */
class Digests {
  private readonly limit: LimitClient;

  constructor(private readonly context: LimitContext) {
    this.limit = new LimitClient(context);
  }

  get url(): string {
    return `${this.context.target.baseUrl}${stated(this.context.target, "digest").path}`;
  }

  private async send(what: string, headers: Record<string, string>, expected: number): Promise<Answered> {
    const http = this.limit.http;
    const reply = await answerOf(() => http.send("GET", this.url, { headers }), http.exchanges, what);
    return judged(reply, what, (status) => status === expected);
  }

  /** A request without credentials: its 401 and the time it took. */
  async challenge(): Promise<{ reply: Answered; ms: number }> {
    const started = performance.now();
    const reply = await this.send("a request without credentials", {}, 401);
    return { reply, ms: performance.now() - started };
  }

  /** The answer to a challenge: the time of the answered request, which must get in. */
  async answer(challengeReply: Answered): Promise<number> {
    const started = performance.now();
    await this.send("the answered request", { authorization: this.authorization(challengeReply) }, 200);
    return performance.now() - started;
  }

  /**
   * A challenge taken long ago, answered now: "got in", "stale" (401 with stale=true, as good:
   * a client asks again without its user) or "refused" (a 401 without it: the user is asked).
   */
  async answerLate(challengeReply: Answered): Promise<"got in" | "stale" | "refused"> {
    const authorization = this.authorization(challengeReply);
    const reply = await this.send("the late answer", { authorization }, 200).catch((error) => {
      if (!(error instanceof UnexpectedAnswer) || !/answered 401/.test(error.message)) throw error;
      return undefined;
    });
    if (reply !== undefined) return "got in";
    const refusal = this.limit.http.exchanges.at(-1)?.response?.headers["www-authenticate"]?.join(", ");
    const again = digestChallenges(refusal);
    return again.ok && again.value.some((c) => c.stale) ? "stale" : "refused";
  }

  private authorization(challengeReply: Answered): string {
    const { username, password } = stated(this.context.target, "digest");
    const challenges = digestChallenges(challengeReply.response.headers["www-authenticate"]?.join(", "));
    const chosen = challenges.ok ? chooseChallenge(challenges.value) : undefined;
    if (chosen === undefined) throw new UnexpectedAnswer("the 401 carries no Digest challenge sxd can answer (DIG-1)");
    const uri = new URL(this.url).pathname;
    const answer = answerChallenge(chosen.challenge, chosen.algorithm, { method: "GET", uri }, { username, password });
    return authorizationOf(answer.directives);
  }

  async login(): Promise<number> {
    return this.answer((await this.challenge()).reply);
  }

  async close(): Promise<void> {
    await this.limit.close();
  }
}

function notRun(context: LimitContext): string | undefined {
  return unstatedReason(context.target, "digest");
}

/** LIM-4: a challenge's and a login's cost after K challenges nobody answered. */
function nonceLog(context: LimitContext): LimitCase {
  let digests: Digests | undefined;
  const open = () => {
    digests ??= new Digests(context);
    return digests;
  };
  let sent = 0;
  // Challenges taken before any flood, each answered once after a size (OLD_NONCES sizes at most).
  const old: Answered[] = [];
  return {
    id: "LIM-4",
    size: { name: "K", unit: "unanswered challenges" },
    defaultSizes: [1_000, 10_000, 100_000],
    series: [
      { name: "challenge", unit: "ms" },
      { name: "login", unit: "ms" },
    ],
    interleaved: false,
    notRun: () => notRun(context),
    requests: (k, repeats) => Math.max(0, k - sent) + repeats * 3 + 1,
    async prepare(k) {
      const d = open();
      if (sent === 0) for (let i = 0; i < OLD_NONCES; i++) old.push((await d.challenge()).reply);
      const flood = async () => {
        while (sent < k) {
          sent++;
          await d.challenge();
        }
      };
      await Promise.all(Array.from({ length: FLOOD_AT_ONCE }, flood));
    },
    async measure() {
      const d = open();
      const { reply, ms } = await d.challenge();
      return { challenge: ms, login: await d.answer(reply) };
    },
    async observe() {
      const taken = old.shift();
      if (taken === undefined) return "no nonce from before the flood left to answer";
      const late = await open().answerLate(taken);
      if (late === "got in") return "a nonce issued before them still gets in";
      if (late === "stale") return "a nonce issued before them is refused as stale (stale=true): the client asks again";
      return "a nonce issued before them is refused without stale=true: the client's user is asked again";
    },
    cleanup: async () => digests?.close(),
  };
}

/** LIM-7: digest logins with C clients at once: the time per login (the inverse of logins a second). */
function loginsAtOnce(context: LimitContext): LimitCase {
  const clients: Digests[] = [];
  const loginsEach = (c: number) => Math.max(2, Math.ceil(64 / c));
  return {
    id: "LIM-7",
    size: { name: "C", unit: "clients at once" },
    defaultSizes: [1, 8, 64],
    series: [{ name: "time per login", unit: "ms per login" }],
    interleaved: true,
    notRun: () => notRun(context),
    requests: (c, repeats) => repeats * c * loginsEach(c) * 2,
    async prepare(c) {
      while (clients.length < c) clients.push(new Digests(context));
    },
    async measure(c) {
      const each = loginsEach(c);
      const started = performance.now();
      await Promise.all(
        clients.slice(0, c).map(async (client) => {
          for (let i = 0; i < each; i++) await client.login();
        }),
      );
      return { "time per login": (performance.now() - started) / (c * each) };
    },
    cleanup: async () => {
      await Promise.all(clients.map((client) => client.close()));
    },
  };
}
