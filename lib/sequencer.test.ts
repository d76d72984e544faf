import assert from "node:assert/strict";
import { createHash, createHmac, randomBytes } from "node:crypto";
import { test } from "node:test";
import { judgeSequence, MIN_SAMPLES, NEEDED_BITS, type SequenceSample } from "./sequencer.ts";

const START = Date.UTC(2024, 3, 5, 10, 20, 30, 250);

/** `n` values made by `make`, each with the Date (whole seconds) of a reply sent `stepMs` after the last. */
function sample(make: (i: number, nowMs: number) => string, n = 100, stepMs = 7): SequenceSample[] {
  return Array.from({ length: n }, (_, i) => {
    const now = START + stepMs * i;
    return { value: make(i, now), dateMs: Math.floor(now / 1000) * 1000 };
  });
}

const hex = (algorithm: string, text: string) => createHash(algorithm).update(text).digest("hex");
const hmac = (text: string) => createHmac("sha256", "a secret the observer lacks").update(text).digest("hex");

test("random values pass, with their bits counted", () => {
  const judged = judgeSequence(sample(() => randomBytes(24).toString("base64url")));
  assert.equal(judged.verdict, "passed", judged.summary);
  assert.ok((judged.effectiveBits ?? 0) > 150, judged.summary);
});

test("a time stamp and an HMAC pass, separated or as RFC 7616's base64 of both", () => {
  const joined = judgeSequence(sample((i, now) => `${now}.${hmac(`${now}:${i}`)}`));
  assert.equal(joined.verdict, "passed", joined.summary);
  assert.ok(
    joined.details.some((d) => /part 1, a clock in ms/.test(d)),
    joined.details.join("\n"),
  );
  const rfc = judgeSequence(sample((i, now) => Buffer.from(`${now} ${hmac(`${now}:${i}`)}`).toString("base64")));
  assert.equal(rfc.verdict, "passed", rfc.summary);
  assert.ok(
    rfc.details.some((d) => /decoded: part 1, a clock in ms/.test(d)),
    rfc.details.join("\n"),
  );
});

const predictable: Array<[string, (i: number, now: number) => string, RegExp]> = [
  ["a decimal counter", (i) => String(1000 + i), /a counter \(step 1\)/],
  ["a hex counter with a step of 16", (i) => (0x5a00 + 16 * i).toString(16).padStart(12, "0"), /a counter \(step 16\)/],
  ["a counter after a constant prefix", (i) => `node7-${i + 40}`, /part 2, a counter/],
  ["the clock in ms", (_, now) => String(now), /a clock in ms/],
  ["the clock in ms, hex", (_, now) => now.toString(16), /a clock in ms/],
  ["the clock in µs", (i, now) => String(now * 1000 + ((i * 7919) % 1000)), /a clock in µs/],
  ["MD5 of a counter", (i) => hex("md5", String(300 + i)), /MD5 of a counter/],
  ["SHA-1 of a counter, base64", (i) => createHash("sha1").update(String(i)).digest("base64"), /SHA-1 of a counter/],
  ["SHA-256 of the clock in ms", (_, now) => hex("sha256", String(now)), /SHA-256 of the clock in ms/],
  ["base64 of a counter", (i) => Buffer.from(String(90_000 + i)).toString("base64"), /a counter/],
  ["base64url of a binary counter", (i) => Buffer.from([0, 0, 0, 0, 0, 1, i, 7]).toString("base64url"), /a counter/],
  ["a clock and a counter", (i, now) => `${now}-${i}`, /a clock in ms.*a counter/],
];

for (const [name, make, finding] of predictable) {
  test(`${name} is predicted`, () => {
    const judged = judgeSequence(sample(make));
    assert.equal(judged.verdict, "predictable", `${judged.summary}\n${judged.details.join("\n")}`);
    assert.match(judged.summary, finding);
  });
}

test("the clock in seconds, and an expiry an hour ahead of it, are predicted", () => {
  const seconds = judgeSequence(sample((_, now) => String(Math.floor(now / 1000)), 30, 1100));
  assert.equal(seconds.verdict, "predictable", seconds.summary);
  assert.match(seconds.summary, /a clock in s, at the reply's Date/);
  const expiry = judgeSequence(sample((_, now) => (Math.floor(now / 1000) + 3600).toString(36), 30, 1100));
  assert.equal(expiry.verdict, "predictable", expiry.summary);
  assert.match(expiry.summary, /a clock in s, 3600 s from the reply's Date/);
});

test("a value that repeats is predictable", () => {
  const judged = judgeSequence(
    sample((i) => (i === 50 ? "repeat" : i === 60 ? "repeat" : randomBytes(16).toString("hex"))),
  );
  assert.equal(judged.verdict, "predictable");
  assert.match(judged.summary, /^values repeat/);
  assert.deepEqual(judged.details, ["1 of 100 values repeat an earlier one"]);
});

test(`random values with fewer than ${NEEDED_BITS} bits are weak`, () => {
  const judged = judgeSequence(sample(() => randomBytes(6).toString("hex")));
  assert.equal(judged.verdict, "weak");
  assert.match(judged.summary, /^4\d effective bits, fewer than the 64/);
});

test("a time stamp beside 40 random bits is weak: the clock counts for nothing", () => {
  const judged = judgeSequence(sample((_, now) => `${now}:${randomBytes(5).toString("hex")}`));
  assert.equal(judged.verdict, "weak", judged.summary);
});

test("biased bits count for nothing", () => {
  // Each bit is set one time in four: 192 bits that vary, none a fair coin.
  const biased = () => Buffer.from(randomBytes(24).map((b, i) => b & randomBytes(24)[i])).toString("hex");
  const judged = judgeSequence(sample(biased));
  assert.equal(judged.verdict, "weak", judged.summary);
  assert.ok((judged.effectiveBits ?? 99) < 10, judged.summary);
});

test("small samples say what they could not judge, but a counter shows even there", () => {
  const few = judgeSequence(sample(() => randomBytes(16).toString("hex"), MIN_SAMPLES - 1));
  assert.equal(few.verdict, "too few");
  assert.match(few.summary, /too few for the bit tests \(at least 20\)/);
  assert.equal(judgeSequence(sample(() => randomBytes(16).toString("hex"), 2)).verdict, "too few");
  assert.equal(judgeSequence(sample((i) => String(10 + i), 5)).verdict, "predictable");
});

test("without the replies' Dates a clock is not tried, and a hashed clock is not found", () => {
  const undated = sample((_, now) => hex("sha256", String(now))).map(({ value }) => ({ value }));
  assert.equal(judgeSequence(undated).verdict, "passed");
});
