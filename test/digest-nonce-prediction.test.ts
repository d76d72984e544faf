/**
 * DIG-13 on servers of the tests' own, unlike the reference (whose nonce is binary: a time, a
 * count, random bytes and a MAC): one writes its nonce as RFC 7616 §3.3 suggests, base64 of a
 * time stamp and an HMAC under a secret, and passes; one writes it as Apache httpd does, its
 * clock's bytes little-endian in base64 before a SHA-1 with a secret in hex, and passes; one
 * hands out its clock in microseconds, unique but computable, and gets the row's warning naming
 * the clock. Only DIG-13 runs.
 */
import assert from "node:assert/strict";
import { createHash, createHmac, randomBytes } from "node:crypto";
import { test } from "node:test";
import { resolveDescription, type TargetDescription } from "../harness/description/target.ts";
import { validateDescription } from "../harness/description/target-check.ts";
import { type NonceRecord, type Nonces, REALM, startDigestServer } from "./digest-targets/digest-server.ts";
import { runAgainstTarget } from "./support/suite.ts";

/** Nonces made by `make`, each remembered as issued now. */
function madeBy(make: () => string): Nonces {
  const issued = new Map<string, NonceRecord>();
  return {
    issue() {
      const nonce = make();
      issued.set(nonce, { issuedAt: Date.now(), lastNc: 0 });
      return nonce;
    },
    recall: (nonce) => issued.get(nonce),
  };
}

/** The clock in microseconds, made unique by stepping past the last one read. */
function microseconds(): () => bigint {
  let last = 0n;
  return () => {
    const now = BigInt(Date.now()) * 1000n + ((process.hrtime.bigint() / 1000n) % 1000n);
    last = now > last ? now : last + 1n;
    return last;
  };
}

/** base64("<ms> <HMAC-SHA256(secret, ms:count)>"): a count keeps two nonces of one millisecond apart. */
function timeStampAndMac(): Nonces {
  const secret = randomBytes(32);
  let count = 0;
  return madeBy(() => {
    const now = Date.now();
    const mac = createHmac("sha256", secret).update(`${now}:${count++}`).digest("hex");
    return Buffer.from(`${now} ${mac}`).toString("base64");
  });
}

/**
 * Apache httpd's (mod_auth_digest): base64 of the clock in µs as 8 little-endian bytes, then 40
 * hex digits of SHA-1 over that text, a secret and the realm.
 */
function apacheNonces(): Nonces {
  const secret = randomBytes(20);
  const clock = microseconds();
  return madeBy(() => {
    const stamp = Buffer.alloc(8);
    stamp.writeBigUInt64LE(clock());
    const text = stamp.toString("base64");
    return text + createHash("sha1").update(secret).update(text).update(REALM).digest("hex");
  });
}

/** The clock in microseconds, unique but computable. */
function clockNonces(): Nonces {
  const clock = microseconds();
  return madeBy(() => String(clock()));
}

async function dig13(nonces: Nonces) {
  const server = await startDigestServer({ nonces });
  try {
    const valid = validateDescription(server.description);
    assert.ok(valid.ok);
    const resolved = resolveDescription([valid.value]);
    assert.ok(resolved.ok);
    const run = await runAgainstTarget(resolved.value as TargetDescription, { tags: "@DIG-13", strict: false });
    const row = run.judgement.rows.find((r) => r.row.id === "DIG-13");
    return { verdict: row?.verdict, messages: (row?.scenarios ?? []).map((s) => s.message ?? "").join("\n") };
  } finally {
    await server.close();
  }
}

test("a nonce of a time stamp and an HMAC, as RFC 7616 §3.3 suggests, passes DIG-13", async () => {
  const { verdict, messages } = await dig13(timeStampAndMac());
  assert.equal(verdict, "passed", messages);
});

test("Apache httpd's nonce, a little-endian time stamp in base64 and a hash in hex, passes DIG-13", async () => {
  const { verdict, messages } = await dig13(apacheNonces());
  assert.equal(verdict, "passed", messages);
});

test("a nonce that is the clock in microseconds gets DIG-13's warning, naming the clock", async () => {
  const { verdict, messages } = await dig13(clockNonces());
  assert.equal(verdict, "warning", messages);
  assert.match(messages, /a clock in µs/);
});
