/**
 * DIG-13: nonces no one can compute in advance. A sample of challenges, a few at a time, each
 * reply's Date the clock the guesser tries; the first must be a challenge, so that a server
 * that answers with anything else leaves the row not run, never passed.
 */

import type { Answered } from "../../harness/evidence/exchange.ts";
import type { SequenceSample } from "../../lib/sequencer.ts";
import { Then, When } from "../support/cucumber.ts";
import { expectUnpredictable, sampleAtOnce, sampled, sampleSize } from "../support/sequencer.ts";
import type { SxdWorld } from "../support/world.ts";
import { challengesOf, sendProtected } from "./session.ts";

interface NonceSample {
  samples: SequenceSample[];
  last: Answered;
}

const nonceSamples = new WeakMap<SxdWorld, NonceSample>();

/** The nonce of the reply's first Digest challenge, where it is a 401 with one. */
function nonceOf(reply: Answered): string | undefined {
  if (reply.response.status !== 401) return undefined;
  return challengesOf(reply)[0]?.params.get("nonce");
}

When("the client collects the nonces of a sample of challenges", async function (this: SxdWorld) {
  const first = await sendProtected(this, { note: "the first challenge of the sample" });
  const nonce = nonceOf(first);
  if (nonce === undefined)
    return this.notRun(
      `no challenge to sample: the protected resource answered ${first.response.status} without a Digest nonce (see DIG-1)`,
    );
  const samples = [sampled(nonce, first)];
  let last = first;
  const rest = await sampleAtOnce(sampleSize(this) - 1, async () => {
    const reply = await sendProtected(this, { note: "a challenge of the sample" });
    last = reply;
    const value = nonceOf(reply);
    return value === undefined ? undefined : sampled(value, reply);
  });
  nonceSamples.set(this, { samples: [...samples, ...rest], last });
  return undefined;
});

Then("no nonce of the sample can be predicted", function (this: SxdWorld) {
  const sample = nonceSamples.get(this);
  if (!sample) throw new Error("no nonces were sampled in this scenario");
  return expectUnpredictable(this, sample.samples, "nonces", sample.last);
});
