import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import { percentDecoded, percentEncoded } from "../../lib/percent.ts";
import { checkToken, issueToken, type TokenSetting } from "./token-schemes.ts";

const NOW = 1_796_660_000;

test("escaped-unsigned-expiry: a version byte no UTF-8 decoder takes, then user|expiry|MAC; the expiry moves freely", () => {
  const setting: TokenSetting = { scheme: "escaped-unsigned-expiry", key: "k", format: "standard" };
  const token = issueToken(setting, "rosa-k", NOW + 3600);
  const written = percentEncoded(token);
  assert.match(written, /^%80rosa-k%7C1796663600%7C[0-9a-f]{64}$/);
  assert.throws(() => decodeURIComponent(written), URIError);
  assert.equal(percentDecoded(written), token);
  assert.deepEqual(checkToken(setting, "rosa-k", token, NOW), { ok: true });
  assert.deepEqual(checkToken(setting, "lin", token.replace("rosa-k", "lin"), NOW), { ok: false, reason: "invalid" });
  assert.deepEqual(checkToken(setting, "rosa-k", token.replace("|1796663600|", "|1896663600|"), NOW), { ok: true });
  assert.deepEqual(checkToken(setting, "rosa-k", token.slice(1), NOW), { ok: false, reason: "malformed" });
});

test("escaped-counted: the next number and its keyless SHA-256, escaped in the link; only an issued one gets in", () => {
  const setting: TokenSetting = { scheme: "escaped-counted", key: "counted-test", format: "standard" };
  const first = issueToken(setting, "rosa-k", NOW + 3600);
  const second = issueToken(setting, "rosa-k", NOW + 3600);
  const [number, hash] = first.split("|");
  assert.equal(hash, createHash("sha256").update(number).digest("hex"));
  assert.equal(
    second,
    `${Number(number) + 1}|${createHash("sha256")
      .update(String(Number(number) + 1))
      .digest("hex")}`,
  );
  assert.equal(percentEncoded(first), `${number}%7C${hash}`);
  assert.deepEqual(checkToken(setting, "rosa-k", second, NOW), { ok: true });
  assert.deepEqual(checkToken(setting, "lin", second, NOW), { ok: false, reason: "invalid" });
  assert.deepEqual(checkToken(setting, "rosa-k", `${Number(number) + 2}|${hash}`, NOW), {
    ok: false,
    reason: "invalid",
  });
  assert.deepEqual(checkToken(setting, "rosa-k", second, NOW + 3600), { ok: false, reason: "expired" });
});
