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

test("a hex counter whose values happen to hold no letter is predicted, read as hex", () => {
  // 0, 1108, 2210, 3318, 4420: hex steps of 4360, decimal steps of 1108 and 1102 in turn.
  const values = [0, 1, 2, 3, 4].map((i) => ({ value: (4360 * i).toString(16) }));
  const judged = judgeSequence(values);
  assert.equal(judged.verdict, "predictable", judged.summary);
  assert.ok(
    judged.details.some((line) => /a counter \(step 4360\), its digits read as hex/.test(line)),
    judged.details.join("\n"),
  );
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
  // Each position is judged on its own, and a biased one passes its test by chance about one
  // time in 40: of 192, about 5 pass (measured: 0 to 13 in 300 samples). 32 is over ten standard
  // deviations above that, and still half of the 64 bits the row needs.
  assert.ok((judged.effectiveBits ?? 99) < 32, judged.summary);
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

/**
 * Apache httpd's nonce: base64 of its clock in µs (8 bytes, little-endian), then 40 hex digits
 * of SHA-1 over that text, a secret and the realm; `hashed` puts something else in the hash's place.
 */
function apacheNonce(hashed = (stamp: string, _i: number) => hex("sha1", `a secret${stamp}realm`)) {
  return (i: number, now: number) => {
    const stamp = Buffer.alloc(8);
    stamp.writeBigUInt64LE(BigInt(now) * 1000n + BigInt((i * 7919) % 1000));
    return stamp.toString("base64") + hashed(stamp.toString("base64"), i);
  };
}

/** An 8-byte time stamp in ms, in either byte order. */
function stamp(now: number, littleEndian: boolean): Buffer {
  const bytes = Buffer.alloc(8);
  if (littleEndian) bytes.writeBigUInt64LE(BigInt(now));
  else bytes.writeBigUInt64BE(BigInt(now));
  return bytes;
}

const timeStamped: Array<[string, (i: number, now: number) => string, RegExp]> = [
  ["Apache httpd's nonce", apacheNonce(), /part 1, bytes 0–7, little-endian: a clock in µs/],
  [
    "a little-endian time stamp and an HMAC in one hex string",
    (i, now) => stamp(now, true).toString("hex") + hmac(String(i)),
    /bytes 0–7, little-endian: a clock in ms/,
  ],
  [
    "an HMAC and a big-endian time stamp in one base64url string",
    (i, now) => Buffer.concat([Buffer.from(hmac(String(i)), "hex"), stamp(now, false)]).toString("base64url"),
    /bytes 32–39: a clock in ms/,
  ],
  [
    "the clock in ms in decimal and an HMAC in hex, with nothing between",
    (i, now) => `${now}${hmac(String(i))}`,
    /its first 13 digits: a clock in ms/,
  ],
];

for (const [name, make, clock] of timeStamped) {
  test(`${name} passes at 20, 32 and 100 values: the time stamp is set aside, the hash judged bit by bit`, () => {
    for (const n of [MIN_SAMPLES, 32, 100]) {
      const judged = judgeSequence(sample(make, n));
      assert.equal(judged.verdict, "passed", `${n} values: ${judged.summary}\n${judged.details.join("\n")}`);
      assert.ok(
        judged.details.some((d) => clock.test(d)),
        judged.details.join("\n"),
      );
    }
  });
}

test("Apache's shape with a hash of a counter or cut to 56 bits, and a decimal clock glued to 56 random bits, fail", () => {
  const counted = judgeSequence(
    sample(
      apacheNonce((_, i) => hex("sha1", String(i))),
      32,
    ),
  );
  assert.equal(counted.verdict, "predictable", counted.summary);
  const cut = judgeSequence(
    sample(
      apacheNonce((stamp) => hex("sha1", `a secret${stamp}`).slice(0, 14)),
      32,
    ),
  );
  assert.equal(cut.verdict, "weak", cut.summary);
  assert.match(cut.summary, /^5\d effective bits/);
  const glued = judgeSequence(sample((_, now) => `${now}${randomBytes(7).toString("hex")}`, 32));
  assert.equal(glued.verdict, "weak", glued.summary);
});

/** Bits of `random` random bytes placed at `at` of a 20-byte value whose other bits never change. */
function scattered(random: number, at: (bit: number) => number): () => string {
  const filler = randomBytes(20);
  return () => {
    const value = Buffer.from(filler);
    const fresh = randomBytes(random);
    for (let bit = 0; bit < 8 * random; bit++) {
      const to = at(bit);
      const mask = 0x80 >> (to % 8);
      value[to >> 3] = (fresh[bit >> 3] >> (7 - (bit % 8))) & 1 ? value[to >> 3] | mask : value[to >> 3] & ~mask;
    }
    return value.toString("hex");
  };
}

/** 48 random bits, and 160 positions that each hold the sum (XOR) of some of them. */
function summed(): () => string {
  const masks = Array.from({ length: 160 }, () => randomBytes(6));
  return () => {
    const fresh = randomBytes(6);
    const bits = masks.map((m) => m.reduce((x, b, i) => x ^ popParity(b & fresh[i]), 0));
    return BigInt(`0b1${bits.join("")}`).toString(16);
  };
}
const popParity = (b: number) => [...b.toString(2)].filter((c) => c === "1").length % 2;

test("72 random bits spread over a value pass, and 56 fail, however they are spread", () => {
  const spreads: Array<[string, (bit: number) => number]> = [
    ["in a row", (bit) => bit],
    ["a bit in every other", (bit) => 2 * bit],
    ["at random places", shuffledPlaces()],
  ];
  for (const n of [MIN_SAMPLES, 32, 100])
    for (const [how, at] of spreads) {
      const enough = judgeSequence(sample(scattered(9, at), n));
      assert.equal(enough.verdict, "passed", `72 bits ${how}, ${n} values: ${enough.summary}`);
      const few = judgeSequence(sample(scattered(7, at), n));
      assert.equal(few.verdict, "weak", `56 bits ${how}, ${n} values: ${few.summary}`);
    }
});

function shuffledPlaces(): (bit: number) => number {
  const places = Array.from({ length: 160 }, (_, i) => i).sort(() => Math.random() - 0.5);
  return (bit) => places[bit];
}

test("48 random bits written twice, mirrored, or summed into 160 positions are weak", () => {
  const twice = judgeSequence(
    sample(() => {
      const fresh = randomBytes(6);
      return `${fresh.toString("hex")}.${Buffer.from(fresh.map((b) => 255 - b).reverse()).toString("base64")}`;
    }, 32),
  );
  assert.equal(twice.verdict, "weak", twice.summary);
  // Each of the 48 copies counts once. Over 32 values a truly random bit now and then fails the
  // per-bit tests by chance and is set aside before copies are looked for, taking its pair with
  // it: of 300 runs, 290 counted 48 copies and 10 counted 47.
  const copies = Number(/(\d+) of them copy or mirror another and count once/.exec(twice.details.join("\n"))?.[1]);
  assert.ok(copies >= 44 && copies <= 48, twice.details.join("\n"));
  // Sums show only where the sample leaves room beside their rank: 100 values, not 32.
  const sums = judgeSequence(sample(summed(), 100));
  assert.equal(sums.verdict, "weak", sums.summary);
  assert.match(sums.summary, /^48 effective bits/);
});
