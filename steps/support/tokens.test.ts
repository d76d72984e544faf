import assert from "node:assert/strict";
import { test } from "node:test";
import { forgedLike, forgedTail, randomToken } from "./tokens.ts";

const SERVED = ["mf3k2a1.q8Zk-3_aXbPq0LmN9sTuVwYz12AbCdEfGhIjKlMnOp", "0123abcd-1700000000-deadbeef00", "x", "AAAA"];
const kind = (c: string) => (/\d/.test(c) ? "digit" : /[a-z]/.test(c) ? "lower" : /[A-Z]/.test(c) ? "upper" : c);

test("a forged token keeps the shape of the served one, and differs in every letter and digit", () => {
  for (const token of SERVED) {
    const forged = forgedLike(token);
    assert.equal(forged.length, token.length);
    for (let i = 0; i < token.length; i++) {
      assert.equal(kind(forged[i]), kind(token[i]), `${forged} against ${token} at ${i}`);
      if (/[0-9A-Za-z]/.test(token[i])) assert.notEqual(forged[i], token[i]);
    }
  }
  // Characters the token uses, where it uses more than one of that kind.
  for (const c of forgedLike(SERVED[1])) assert.ok(SERVED[1].includes(c), c);
  assert.equal(forgedLike(""), "A");
  assert.notEqual(forgedLike("._"), "._");
});

test("a token with its tail changed keeps its head, its length and the kind of each character", () => {
  for (const token of SERVED) {
    const changed = forgedTail(token);
    assert.notEqual(changed, token);
    assert.equal(changed.length, token.length);
    const n = Math.min(4, Math.ceil(token.length / 4));
    assert.equal(changed.slice(0, token.length - n), token.slice(0, token.length - n));
    for (let i = token.length - n; i < token.length; i++) {
      assert.notEqual(changed[i], token[i]);
      assert.equal(kind(changed[i]), kind(token[i]));
    }
  }
  // A hex tail stays hex: a server that checks the shape first cannot refuse it on shape.
  assert.match(forgedTail("0123abcd-1700000000-deadbeef00").slice(-4), /^[0-9a-f]{4}$/);
});

test("random tokens differ from each other", () => {
  assert.notEqual(randomToken(), randomToken());
  assert.match(randomToken(), /^[0-9a-f]{32}$/);
});
