import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { percentEncoded } from "../../lib/percent.ts";
import { mintToken, type TokenFormat, verifyToken } from "./token.ts";

const KEY = "test-key";
const NOW = 1_700_000_000;

for (const format of ["standard", "alternative"] as TokenFormat[]) {
  describe(`link token, ${format} format`, () => {
    const token = mintToken(KEY, "alice", NOW + 60, format);

    it("is accepted for its user before it expires", () => {
      assert.deepEqual(verifyToken(KEY, "alice", token, NOW, format), { ok: true });
    });

    it("fits in one path parameter, percent-encoded where it must be", () => {
      assert.match(percentEncoded(token), /^(?:[A-Za-z0-9._-]|%[0-9A-F]{2})+$/);
      assert.equal(percentEncoded(token) === token, format === "standard");
    });

    it("is refused for another user", () => {
      assert.deepEqual(verifyToken(KEY, "bob", token, NOW, format), { ok: false, reason: "invalid" });
    });

    it("is refused under another key", () => {
      assert.deepEqual(verifyToken("other-key", "alice", token, NOW, format), { ok: false, reason: "invalid" });
    });

    it("is refused once expired", () => {
      assert.deepEqual(verifyToken(KEY, "alice", token, NOW + 60, format), { ok: false, reason: "expired" });
    });

    it("is refused when any one character changes", () => {
      for (let i = 0; i < token.length; i++) {
        const altered = `${token.slice(0, i)}${token[i] === "a" ? "b" : "a"}${token.slice(i + 1)}`;
        assert.equal(verifyToken(KEY, "alice", altered, NOW, format).ok, false, `changed at ${i}: ${altered}`);
      }
    });

    it("cannot be extended by rewriting its expiry", () => {
      const later =
        format === "standard"
          ? token.replace(/^[^.]+/, (NOW + 86_400).toString(36))
          : token.replace(/\|\d+\|/, `|${NOW + 86_400}|`);
      assert.notEqual(later, token);
      assert.deepEqual(verifyToken(KEY, "alice", later, NOW, format), { ok: false, reason: "invalid" });
    });

    it("is refused when missing or of the wrong shape", () => {
      assert.deepEqual(verifyToken(KEY, "alice", undefined, NOW, format), { ok: false, reason: "missing" });
      assert.deepEqual(verifyToken(KEY, "alice", "", NOW, format), { ok: false, reason: "missing" });
      assert.deepEqual(verifyToken(KEY, "alice", "not a token", NOW, format), { ok: false, reason: "malformed" });
    });
  });
}

it("the two formats do not accept each other's tokens", () => {
  const standard = mintToken(KEY, "alice", NOW + 60, "standard");
  const alternative = mintToken(KEY, "alice", NOW + 60, "alternative");
  assert.equal(verifyToken(KEY, "alice", standard, NOW, "alternative").ok, false);
  assert.equal(verifyToken(KEY, "alice", alternative, NOW, "standard").ok, false);
});

it("alternative tokens differ on every mint", () => {
  assert.notEqual(mintToken(KEY, "alice", NOW + 60, "alternative"), mintToken(KEY, "alice", NOW + 60, "alternative"));
});
