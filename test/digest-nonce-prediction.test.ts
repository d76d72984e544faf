/**
 * DIG-13 on servers of the tests' own, unlike the reference (whose nonce is binary: a time, a
 * count, random bytes and a MAC): one writes its nonce as RFC 7616 §3.3 suggests, base64 of a
 * time stamp and an HMAC under a secret, and passes; one hands out its clock in microseconds,
 * unique but computable, and gets the row's warning naming the clock. Only DIG-13 runs.
 */
import assert from "node:assert/strict";
import { createHmac, randomBytes } from "node:crypto";
import { test } from "node:test";
import { resolveDescription, type TargetDescription } from "../harness/target.ts";
import { validateDescription } from "../harness/target-check.ts";
import { type NonceRecord, type Nonces, startDigestServer } from "./digest-targets/digest-server.ts";
import { runAgainstTarget } from "./support/suite.ts";

/** base64("<ms> <HMAC-SHA256(secret, ms:count)>"): a count keeps two nonces of one millisecond apart. */
function timeStampAndMac(): Nonces {
  const secret = randomBytes(32);
  const issued = new Map<string, NonceRecord>();
  let count = 0;
  return {
    issue() {
      const now = Date.now();
      const mac = createHmac("sha256", secret).update(`${now}:${count++}`).digest("hex");
      const nonce = Buffer.from(`${now} ${mac}`).toString("base64");
      issued.set(nonce, { issuedAt: now, lastNc: 0 });
      return nonce;
    },
    recall: (nonce) => issued.get(nonce),
  };
}

/** The clock in microseconds, made unique by stepping past the last one handed out. */
function clockNonces(): Nonces {
  const issued = new Map<string, NonceRecord>();
  let last = 0;
  return {
    issue() {
      last = Math.max(Date.now() * 1000, last + 1);
      const nonce = String(last);
      issued.set(nonce, { issuedAt: Date.now(), lastNc: 0 });
      return nonce;
    },
    recall: (nonce) => issued.get(nonce),
  };
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

test("a nonce that is the clock in microseconds gets DIG-13's warning, naming the clock", async () => {
  const { verdict, messages } = await dig13(clockNonces());
  assert.equal(verdict, "warning", messages);
  assert.match(messages, /a clock in µs/);
});
