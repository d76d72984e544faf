import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { NonceStore, rulesFor } from "./nonces.ts";

function store(policy: Parameters<typeof rulesFor>[0], capacity = 100) {
  const clock = { now: 1_000_000 };
  return { clock, nonces: new NonceStore(rulesFor(policy, 60_000, capacity), undefined, () => clock.now) };
}

describe("NonceStore", () => {
  it("issues a different nonce each time and recognises only its own", () => {
    const { nonces } = store("one-time");
    const a = nonces.issue();
    const b = nonces.issue();
    assert.notEqual(a, b);
    assert.equal(nonces.origin(a), "issued");
    assert.equal(nonces.origin(`${a.slice(0, -2)}AA`), "unknown");
    assert.equal(new NonceStore(rulesFor("one-time")).origin(a), "unknown");
    assert.equal(nonces.origin("not a nonce"), "unknown");
  });

  it("lets a one-time nonce in once", () => {
    const { nonces } = store("one-time");
    const nonce = nonces.issue();
    assert.equal(nonces.use(nonce, 1), "accepted");
    assert.equal(nonces.use(nonce, 2), "stale");
  });

  it("lets a limited nonce in N times with a growing nc, never the same nc twice", () => {
    const { nonces } = store({ uses: 3 });
    const nonce = nonces.issue();
    assert.equal(nonces.use(nonce, 1), "accepted");
    assert.equal(nonces.use(nonce, 1), "stale");
    assert.equal(nonces.use(nonce, 2), "accepted");
    assert.equal(nonces.use(nonce, 5), "accepted");
    assert.equal(nonces.use(nonce, 6), "stale");
  });

  it("makes any nonce stale after its lifetime", () => {
    const { clock, nonces } = store("unlimited");
    const nonce = nonces.issue();
    assert.equal(nonces.use(nonce, 1), "accepted");
    clock.now += 60_001;
    assert.equal(nonces.use(nonce, 2), "stale");
    assert.equal(nonces.use(nonces.issue(), 1), "accepted");
  });

  it("stays within its capacity, and a dropped entry never re-opens its nonce", () => {
    const { nonces } = store("one-time", 10);
    const first = nonces.issue();
    nonces.use(first, 1);
    for (let i = 0; i < 50; i++) nonces.use(nonces.issue(), 1);
    assert.ok(nonces.size <= 10);
    assert.equal(nonces.use(first, 1), "stale");
  });

  it("lets expired entries leave the log", () => {
    const { clock, nonces } = store("unlimited");
    for (let i = 0; i < 5; i++) nonces.use(nonces.issue(), 1);
    assert.equal(nonces.size, 5);
    clock.now += 60_001;
    nonces.use(nonces.issue(), 1);
    assert.equal(nonces.size, 1);
  });

  it("keeps a log of many thousand uses within capacity, each one-time nonce used once", () => {
    const { nonces } = store("one-time", 1000);
    const used: string[] = [];
    for (let i = 0; i < 5000; i++) {
      const nonce = nonces.issue();
      assert.equal(nonces.use(nonce, 1), "accepted");
      used.push(nonce);
    }
    assert.equal(nonces.size, 1000);
    for (const nonce of [used[0], used[3999], used[4999]]) assert.equal(nonces.use(nonce, 2), "stale");
  });

  it("stores nothing for nonces that are only issued", () => {
    const { nonces } = store("one-time");
    for (let i = 0; i < 1000; i++) nonces.issue();
    assert.equal(nonces.size, 0);
  });
});
