import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { NonceStore, rulesFor } from "./nonces.ts";

function store(policy: Parameters<typeof rulesFor>[0], capacity = 100) {
  const clock = { now: 1_000_000 };
  return { clock, nonces: new NonceStore(rulesFor(policy, 60_000, capacity), undefined, () => clock.now) };
}

/** The nonce with one character of its MAC changed: always a different string. */
function forged(nonce: string): string {
  const at = nonce.length - 10;
  return `${nonce.slice(0, at)}${nonce[at] === "A" ? "B" : "A"}${nonce.slice(at + 1)}`;
}

describe("NonceStore", () => {
  it("issues a different nonce each time and recognises only its own", () => {
    const { nonces } = store("one-time");
    const a = nonces.issue();
    const b = nonces.issue();
    assert.notEqual(a, b);
    assert.equal(nonces.origin(a), "issued");
    assert.equal(nonces.origin(forged(a)), "unknown");
    assert.equal(new NonceStore(rulesFor("one-time")).origin(a), "unknown");
    assert.equal(nonces.origin("not a nonce"), "unknown");
  });

  it("recognises a nonce issued long ago (by its MAC) as it does one of the last issued", () => {
    const { clock, nonces } = store("one-time");
    const early = nonces.issue();
    for (let i = 0; i < 500; i++) nonces.issue();
    const late = nonces.issue();
    assert.equal(nonces.origin(early), "issued");
    assert.equal(nonces.origin(late), "issued");
    assert.equal(nonces.origin(forged(early)), "unknown");
    assert.equal(nonces.origin(forged(late)), "unknown");
    clock.now += 60_001;
    assert.equal(nonces.use(late, 1), "stale");
    assert.equal(nonces.use(early, 1), "stale");
  });

  it("takes only the spelling it issued, not one whose last character differs in the spare bits", () => {
    const { nonces } = store("one-time");
    const nonce = nonces.issue();
    const last = nonce.at(-1) ?? "";
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    // 40 bytes fill 54 characters with 4 bits to spare: the 16 characters of one block decode alike.
    const block = alphabet.indexOf(last) & ~15;
    const twin = `${nonce.slice(0, -1)}${alphabet[block + ((alphabet.indexOf(last) + 1) % 16)]}`;
    assert.equal(Buffer.from(twin, "base64url").equals(Buffer.from(nonce, "base64url")), true);
    assert.equal(nonces.origin(twin), "unknown");
    assert.equal(nonces.use(twin, 1), "stale");
    // Trusting the timestamp alone (a fault's check) takes it, and any nonce of the shape.
    assert.equal(nonces.timestampCurrent(twin), true);
    assert.equal(nonces.timestampCurrent(nonce.replace(/.$/, last === "A" ? "Q" : "A")), true);
    assert.equal(nonces.timestampCurrent("short"), false);
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

  it("asks for a successor when a nonce is spent or two thirds of its lifetime are gone, not before", () => {
    const once = store("one-time").nonces;
    const single = once.issue();
    once.use(single, 1);
    assert.equal(once.successorDue(single), true);

    const { nonces: limited } = store({ uses: 3 });
    const three = limited.issue();
    const due = [1, 2, 3].map((nc) => {
      limited.use(three, nc);
      return limited.successorDue(three);
    });
    assert.deepEqual(due, [false, false, true]);

    const { clock, nonces } = store("unlimited");
    const nonce = nonces.issue();
    nonces.use(nonce, 1);
    assert.equal(nonces.successorDue(nonce), false);
    clock.now += 40_001;
    assert.equal(nonces.use(nonce, 2), "accepted");
    assert.equal(nonces.successorDue(nonce), true);
  });

  it("still refuses a logged nonce's replay and a forgery of it, though it checks the MAC of a logged nonce only once", () => {
    const { nonces } = store("unlimited");
    const nonce = nonces.issue();
    assert.equal(nonces.use(nonce, 1), "accepted");
    assert.equal(nonces.origin(nonce), "issued");
    assert.equal(nonces.use(nonce, 1), "stale");
    assert.equal(nonces.origin(forged(nonce)), "unknown");
  });

  it("keeps a logged-in client's nonce through a flood of challenges and another client's login", () => {
    const { nonces } = store("unlimited", 10);
    const a = nonces.issue();
    assert.equal(nonces.use(a, 1), "accepted");
    // More nonces issued than the log has entries, none used: issuing stores nothing. The
    // next one (sequence 30) would share a's place in a log indexed by sequence modulo 10.
    for (let i = 0; i < 29; i++) nonces.issue();
    assert.equal(nonces.use(nonces.issue(), 1), "accepted");
    assert.equal(nonces.use(a, 2), "accepted");
  });
});
