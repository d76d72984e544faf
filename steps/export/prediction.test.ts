/**
 * EXP-10 judges a token as meant: the bytes its link's percent-escapes stand for, one character a
 * byte (percentDecodedBytes, as prediction.steps.ts samples them), never the escapes as written.
 * Both ways the written form misleads the sequencer: escapes that hide a counter or a clock and
 * its keyless hash, and raw bytes whose escapes move them about and hide their bits.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import { percentDecodedBytes, percentEncoded, textOfBytes } from "../../lib/percent.ts";
import { judgeSequence, NEEDED_BITS, type SequenceSample } from "../../lib/sequencer.ts";

const START = Date.UTC(2026, 11, 7, 18, 0, 0, 250);

/** 100 tokens `make` gives, as a link writes them (percent-encoded), each with its reply's Date. */
function written(make: (i: number, nowMs: number) => string): SequenceSample[] {
  return Array.from({ length: 100 }, (_, i) => {
    const now = START + 7 * i;
    return { value: percentEncoded(make(i, now)), dateMs: Math.floor(now / 1000) * 1000 };
  });
}

const asMeant = (samples: SequenceSample[]) => samples.map((s) => ({ ...s, value: percentDecodedBytes(s.value) }));
const sha256 = (text: string) => createHash("sha256").update(text).digest();
/** Bytes no guess of the sequencer's computes (the hash of a text it never tries), the same in every run. */
const randomLike = (i: number, length: number) => sha256(`a seed no observer has:${i}`).subarray(0, length);

test("a counter and its keyless hash, escaped, are predicted: as written they passed as text", () => {
  const tokens = written((i) => `${i}|${sha256(String(i)).toString("hex")}`);
  assert.match(tokens[17].value, /^17%7C[0-9a-f]{64}$/);
  const meant = judgeSequence(asMeant(tokens));
  assert.equal(meant.verdict, "predictable", meant.summary);
  assert.match(meant.summary, /a counter \(step 1\).*SHA-256 of a counter/);
  assert.equal(judgeSequence(tokens).verdict, "passed", "the misjudgment decoding prevents");
});

test("a version byte, a user, the clock in ms and the clock's keyless hash, escaped, are predicted", () => {
  const tokens = written(
    (_, now) => `${textOfBytes(Uint8Array.of(0x80))}rosa-k|${now}|${sha256(String(now)).toString("hex")}`,
  );
  const meant = judgeSequence(asMeant(tokens));
  assert.equal(meant.verdict, "predictable", meant.summary);
  assert.match(meant.summary, /a clock in ms, at the reply's Date.*SHA-256 of the clock in ms/);
});

for (const length of [16, 24]) {
  test(`${length} random bytes, escaped, pass with no more bits than the bytes hold`, () => {
    const judged = judgeSequence(asMeant(written((i) => textOfBytes(randomLike(i, length)))));
    assert.equal(judged.verdict, "passed", judged.summary);
    const bits = judged.effectiveBits ?? 0;
    assert.ok(bits <= 8 * length && bits >= 8 * length - 8, `${bits} effective bits of ${8 * length}`);
  });
}

test("10 random bytes (80 bits), escaped, pass as meant, each byte's 8 bits at its place", () => {
  const judged = judgeSequence(asMeant(written((i) => textOfBytes(randomLike(i, 10)))));
  assert.equal(judged.verdict, "passed", judged.summary);
  assert.ok((judged.effectiveBits ?? 0) <= 80, judged.summary);
});

test("an escape's hex digits count as no bits: 7 random bytes behind a user stay short of 64", () => {
  const judged = judgeSequence(asMeant(written((i) => `rosa-k|${textOfBytes(randomLike(i, 7))}`)));
  assert.equal(judged.verdict, "weak", judged.summary);
  assert.ok((judged.effectiveBits ?? 0) <= 56 && NEEDED_BITS > 56, judged.summary);
});
