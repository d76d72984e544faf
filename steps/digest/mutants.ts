/**
 * The bridge from the suite's digest client to lib/digest-mutants.ts: a fresh valid answer to
 * the current challenge, in the form the server took, as the base every mutant starts from.
 */
import type { MutationBase } from "../../lib/digest-mutants.ts";
import { answerChallenge } from "./digest-client.ts";
import type { Answering } from "./flaws.ts";

export function mutationBase(a: Answering): MutationBase {
  const answer = answerChallenge(a.challenge, a.algorithm, a.request, a.credentials);
  return {
    directives: answer.directives,
    password: a.credentials.password,
    method: a.request.method,
    body: a.request.body,
    formula: a.credentials.formula,
  };
}
