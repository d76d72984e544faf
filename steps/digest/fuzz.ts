/**
 * The credentials generator of `sxd fuzz` (DIG-6, DIG-12): the mutants of lib/digest-mutants.ts,
 * every single one first, then compositions drawn from the seed. Each trial gets a fresh 401
 * and answers it as the control login did, so a recipe replays over a new nonce. A mutant
 * that changes what the credentials prove and gets in fails DIG-6; a malformed one that gets
 * in, a 5xx, a dropped connection or a reply that is not HTTP fails DIG-12.
 */

import { unstatedReason } from "../../harness/description/target.ts";
import type { FuzzContext, FuzzGenerator, FuzzTrial, Recipe } from "../../harness/fuzz/engine.ts";
import { targetDispatcher } from "../../harness/wire/dispatcher.ts";
import type { Algorithm, Formula } from "../../lib/digest-math.ts";
import {
  type MutationBase,
  mutate,
  mutationId,
  parseMutationId,
  randomMutations,
  singleMutations,
} from "../../lib/digest-mutants.ts";
import { fuzzClient } from "../support/fuzz-client.ts";
import type { HttpClient } from "../support/http.ts";
import {
  answerableAlgorithms,
  answerChallenge,
  chooseChallenge,
  type DigestChallenge,
  digestChallenges,
} from "./digest-client.ts";

const granted = (status: number) => status >= 200 && status < 300;

export function fuzzGenerators(context: FuzzContext): FuzzGenerator[] {
  return [credentials(context)];
}

function credentials(context: FuzzContext): FuzzGenerator {
  const { target } = context;
  // Where the description leaves the account out, the generator is not run, naming the keys.
  const unstated = unstatedReason(target, "digest");
  const { path = "/", username = "", password = "" } = target.digest;
  const url = `${target.baseUrl}${path}`;
  const { pathname, search } = new URL(url);
  const request = { method: "GET", uri: `${pathname}${search}` };
  let control: { algorithm: Algorithm; formula: Formula } | undefined;
  let singles: string[] = [];
  /** One pool of connections for every trial: a campaign is many short requests. */
  const dispatcher = targetDispatcher(context.timeoutMs, context.tls);
  const client = () => fuzzClient(context, dispatcher);
  /** The control's base: which directives the mutants may name. */
  let controlBase: MutationBase | undefined;

  /** A fresh challenge, and the control's answer to it: the base of a mutant. */
  async function freshBase(http: HttpClient): Promise<MutationBase | undefined> {
    const reply = await http.send("GET", url);
    const parsed = digestChallenges(reply.response.headers["www-authenticate"]?.join(", "));
    if (!parsed.ok || !control) return undefined;
    const chosen = chooseChallenge(parsed.value, control.algorithm);
    if (!chosen) return undefined;
    return baseOf(chosen.challenge, control.algorithm, control.formula);
  }

  function baseOf(challenge: DigestChallenge, algorithm: Algorithm, formula: Formula): MutationBase {
    const answer = answerChallenge(challenge, algorithm, request, { username, password, formula });
    return { directives: answer.directives, password, method: request.method, formula };
  }

  return {
    name: "credentials",
    close: () => dispatcher.close(),
    describe: (showSecrets) => ({ baseUrl: target.baseUrl, path, username, ...(showSecrets ? { password } : {}) }),
    async prepare() {
      if (unstated !== undefined) return unstated;
      const http = client();
      let status = 0;
      for (const formula of ["rfc7616", "spec"] as const) {
        const first = await http.send("GET", url);
        const parsed = digestChallenges(first.response.headers["www-authenticate"]?.join(", "));
        const [algorithm] = parsed.ok ? answerableAlgorithms(parsed.value) : [];
        const chosen = parsed.ok && algorithm ? chooseChallenge(parsed.value, algorithm) : undefined;
        if (!chosen) return `no Digest challenge sxd can answer at ${url} (status ${first.response.status})`;
        const base = baseOf(chosen.challenge, chosen.algorithm, formula);
        const reply = await http.send("GET", url, { headers: { authorization: mutate(base, []).authorization } });
        status = reply.response.status;
        if (granted(status)) {
          control = { algorithm: chosen.algorithm, formula };
          singles = singleMutations(base).map(mutationId);
          controlBase = base;
          return undefined;
        }
      }
      return `valid credentials were refused (status ${status}): check digest.username and digest.password`;
    },
    draw(random, n): Recipe {
      if (n < singles.length || !controlBase) return [singles[n % Math.max(1, singles.length)] ?? ""];
      return randomMutations(controlBase, random).map(mutationId);
    },
    async run(recipe) {
      const http = client();
      const trial: FuzzTrial = { exchanges: http.exchanges };
      const mutations = recipe.map(parseMutationId).filter((m) => m !== undefined);
      let base: MutationBase | undefined;
      try {
        base = await freshBase(http);
      } catch {
        return trial;
      }
      if (!base) return trial;
      const mutant = mutate(base, mutations);
      try {
        const reply = await http.send("GET", url, { headers: { authorization: mutant.authorization } });
        const { status } = reply.response;
        if (status >= 500) trial.failure = { row: "DIG-12", kind: "5xx", why: `status ${status} for a mutant` };
        else if (granted(status))
          trial.failure = mutant.changesMeaning
            ? { row: "DIG-6", kind: "granted", why: `status ${status} for credentials that prove something else` }
            : { row: "DIG-12", kind: "granted", why: `status ${status} for malformed credentials` };
      } catch (error) {
        const message = (error as Error).message;
        const kind = /HPE_|parse|invalid/i.test(message) ? "not HTTP" : "dropped";
        trial.failure = { row: "DIG-12", kind, why: message };
      }
      return trial;
    },
    smaller(recipe) {
      const fewer = recipe.length > 1 ? recipe.map((_, i) => recipe.filter((__, j) => j !== i)) : [];
      const shorter = recipe.flatMap((id, i) => {
        const m = parseMutationId(id);
        const size = m?.size ?? 0;
        if (!m || size <= 1) return [];
        return [recipe.map((other, j) => (j === i ? mutationId({ ...m, size: Math.floor(size / 2) }) : other))];
      });
      return [...fewer, ...shorter];
    },
  };
}
