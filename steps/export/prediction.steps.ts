/**
 * EXP-10: tokens no one can compute in advance, where the list hands out a new one on each
 * read. A sample of reads of the contact list, a few at a time; the first must give an export
 * link with a token, so that a list that cannot be read leaves the row not run, never passed.
 * A list that hands out one token on every read is not what the row is about (not applicable);
 * one whose token changes now and then, not on each read, is judged on the tokens that
 * differ only where they show a counter or a clock and nothing else. A token is judged as meant:
 * the bytes its percent-escapes stand for (RFC 3986 §2.1), so that an escape's "%" and hex digits
 * neither hide a counter or a clock behind them nor count as bits of chance.
 */
import type { Answered } from "../../harness/evidence/exchange.ts";
import { percentDecodedBytes } from "../../lib/percent.ts";
import { judgeSequence, type SequenceSample } from "../../lib/sequencer.ts";
import { holdsWhileRunning } from "../support/alone.ts";
import { Then, When } from "../support/cucumber.ts";
import { fail } from "../support/expect.ts";
import { expectUnpredictable, sampleAtOnce, sampled, sampleSize } from "../support/sequencer.ts";
import type { SxdWorld } from "../support/world.ts";
import { type ExportState, exportLinkOf, readListForScenario, stateOf, THE_EXPORT_USER } from "./checks.ts";
import { findExportLink, importToken, readContactList } from "./contact-list.ts";

interface TokenSample {
  samples: SequenceSample[];
  last: Answered;
}

const tokenSamples = new WeakMap<SxdWorld, TokenSample>();

function tokenOf(world: SxdWorld, state: ExportState, reply: Answered): string | undefined {
  if (reply.response.status !== 200) return undefined;
  const list = readContactList(reply.response.body);
  const href = list.ok
    ? findExportLink(list.value.links, state.messagingUrl, world.target.export.rel)?.href
    : undefined;
  const token = href === undefined ? undefined : importToken(href, state.messagingUrl, state.user);
  return token?.ok ? tokenAsMeant(token.value) : undefined;
}

/**
 * The token the sequencer judges: the bytes the href's escapes stand for, one character a byte.
 * As written, `17%7C<SHA-256 of 17>` is one run of text whose hex digits pass the bit tests; as
 * meant, a counter and the hash of that counter. And raw bytes written as escapes here and as
 * characters there sit at other places in each token, which hides their own bits.
 */
function tokenAsMeant(written: string): string {
  return percentDecodedBytes(written);
}

const SAMPLES_THE_TOKENS = "the client reads the user's contact list as often as the sample needs";
// The sample is of the tokens the list hands out in a row: another scenario's reads would come between.
holdsWhileRunning(THE_EXPORT_USER, SAMPLES_THE_TOKENS);

When(SAMPLES_THE_TOKENS, async function (this: SxdWorld) {
  const state = stateOf(this);
  const first = await readListForScenario(this);
  const link = exportLinkOf(this, state, first);
  const token = importToken(link.href, state.messagingUrl, state.user);
  if (!token.ok) return this.notRun(`the export link carries no token to sample (${token.error}): see EXP-3`);
  let last = first;
  const rest = await sampleAtOnce(sampleSize(this) - 1, async () => {
    const reply = await this.http.send("GET", state.listUrl, {
      headers: { accept: "application/xml" },
      note: "a read of the sample of tokens",
    });
    last = reply;
    const value = tokenOf(this, state, reply);
    return value === undefined ? undefined : sampled(value, reply);
  });
  tokenSamples.set(this, { samples: [sampled(tokenAsMeant(token.value), first), ...rest], last });
  return undefined;
});

Then("the export links' tokens cannot be predicted", function (this: SxdWorld) {
  const sample = tokenSamples.get(this);
  if (!sample) throw new Error("no tokens were sampled in this scenario");
  const { samples, last } = sample;
  const distinct = samples.filter((s, i) => samples.findIndex((t) => t.value === s.value) === i);
  if (distinct.length === 1) return this.notApplicable(NOT_NEW_ON_EACH_READ);
  if (distinct.length === samples.length) return expectUnpredictable(this, samples, "tokens", last);
  // Tokens that change now and then (with a time, say): only a pattern in those that differ tells.
  const judged = judgeSequence(distinct);
  if (judged.verdict === "predictable")
    fail(
      "tokens that no observer can compute",
      `${distinct.length} different tokens in ${samples.length} reads: ${judged.summary}`,
      last,
    );
  return this.notApplicable(NOT_NEW_ON_EACH_READ);
});

/**
 * Why tokens that repeat leave nothing to judge. One text whether or not a token changed during
 * the sample (a token of the second changes when a second passes), so the verdict reads the same.
 */
const NOT_NEW_ON_EACH_READ =
  "the list hands out a token again on a later read, not a new one on each: there is no sample of fresh tokens to judge (any that differ show no counter or clock alone)";
