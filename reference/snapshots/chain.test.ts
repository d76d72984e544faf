import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  type ChainShape,
  chainLinks,
  nextLastModified,
  parseAddress,
  STANDARD_CHAIN,
  servedLastModified,
  snapshotPath,
} from "./chain.ts";

const BASE = "http://ref.test";
const STANDARD: ChainShape = { ...STANDARD_CHAIN, oldestPrevious: "none" };
const SKIPPING: ChainShape = { ...STANDARD, numberingStep: 2 };

describe("addresses", () => {
  it("names the current resource and its snapshots, and nothing outside the collection", () => {
    assert.deepEqual(parseAddress("/entries/a", STANDARD), { resource: "/entries/a" });
    assert.deepEqual(parseAddress("/entries/a/s12", STANDARD), { resource: "/entries/a", snapshot: 12 });
    for (const path of ["/other/a", "/entries/", "/entries/..", "/entries/a/s0", "/entries/a/s01", "/entries/a/b/c"]) {
      assert.equal(parseAddress(path, STANDARD), undefined, path);
    }
    assert.equal(parseAddress("/entries/a b", STANDARD), undefined);
  });

  it("with a numbering that skips, s2n is snapshot n and an odd number names none", () => {
    assert.equal(snapshotPath("/entries/a", 3, SKIPPING), "/entries/a/s6");
    assert.deepEqual(parseAddress("/entries/a/s6", SKIPPING), { resource: "/entries/a", snapshot: 3 });
    assert.deepEqual(parseAddress("/entries/a/s1", SKIPPING), { resource: "/entries/a", snapshot: 0 });
  });
});

describe("links", () => {
  const current = { resource: "/entries/a" };
  const snapshot = (n: number) => ({ resource: "/entries/a", snapshot: n });

  it("the current resource links to itself and to the newest snapshot, once there is one", () => {
    assert.deepEqual(chainLinks(BASE, current, 0, STANDARD), { self: `${BASE}/entries/a`, previous: undefined });
    assert.deepEqual(chainLinks(BASE, current, 3, STANDARD), {
      self: `${BASE}/entries/a`,
      previous: `${BASE}/entries/a/s3`,
    });
  });

  it("a snapshot links to the one before, the one after, and the newest to the current resource", () => {
    assert.deepEqual(chainLinks(BASE, snapshot(2), 3, STANDARD), {
      self: `${BASE}/entries/a/s2`,
      previous: `${BASE}/entries/a/s1`,
      next: `${BASE}/entries/a/s3`,
    });
    assert.equal(chainLinks(BASE, snapshot(3), 3, STANDARD).next, `${BASE}/entries/a`);
  });

  it("the oldest snapshot links to nothing before it, or to s0 where the variant says so, or back to the resource (a fault)", () => {
    assert.equal(chainLinks(BASE, snapshot(1), 2, STANDARD).previous, undefined);
    assert.equal(
      chainLinks(BASE, snapshot(1), 2, { ...STANDARD, oldestPrevious: "unserved" }).previous,
      `${BASE}/entries/a/s0`,
    );
    assert.equal(
      chainLinks(BASE, snapshot(1), 2, { ...STANDARD, oldestPreviousLoops: true }).previous,
      `${BASE}/entries/a`,
    );
  });

  it("follows a shape bent by a fault", () => {
    assert.equal(
      chainLinks(BASE, current, 3, { ...STANDARD, currentPreviousTo: "oldest" }).previous,
      `${BASE}/entries/a/s1`,
    );
    assert.equal(
      chainLinks(BASE, current, 3, { ...STANDARD, relativeCurrentPrevious: true }).previous,
      "/entries/a/s3",
    );
    assert.deepEqual(chainLinks(BASE, snapshot(2), 3, { ...STANDARD, relativeSnapshotLinks: true }), {
      self: "/entries/a/s2",
      previous: "/entries/a/s1",
      next: "/entries/a/s3",
    });
    const skipping = { ...STANDARD, previousSkipsToOldest: true };
    assert.equal(chainLinks(BASE, snapshot(2), 4, skipping).previous, `${BASE}/entries/a/s1`);
    assert.equal(chainLinks(BASE, snapshot(4), 4, skipping).previous, `${BASE}/entries/a/s1`);
    assert.equal(chainLinks(BASE, snapshot(2), 3, { ...STANDARD, snapshotsLinkNext: false }).next, undefined);
    const middleless = { ...STANDARD, middleLinksNoPrevious: true };
    assert.deepEqual(
      [1, 2, 3, 4].map((n) => chainLinks(BASE, snapshot(n), 4, middleless).previous),
      [undefined, undefined, undefined, `${BASE}/entries/a/s3`],
    );
    assert.deepEqual(chainLinks(BASE, snapshot(2), 2, SKIPPING), {
      self: `${BASE}/entries/a/s4`,
      previous: `${BASE}/entries/a/s2`,
      next: `${BASE}/entries/a`,
    });
  });
});

describe("Last-Modified", () => {
  const noon = Date.UTC(2026, 0, 1, 12, 0, 0);

  it("a reply never shows a date later than now, in whole seconds", () => {
    assert.equal(servedLastModified(noon, noon + 400), noon);
    assert.equal(servedLastModified(noon + 1000, noon + 400), noon);
    assert.equal(servedLastModified(noon - 5000, noon + 400), noon - 5000);
  });

  it("a new version stores a date later than any shown for the one before, at most a second ahead", () => {
    assert.equal(nextLastModified(noon - 5000, noon + 400), noon);
    assert.equal(nextLastModified(noon, noon + 400), noon + 1000);
    let stored = noon;
    for (let update = 0; update < 5; update++) {
      const next = nextLastModified(stored, noon + 400);
      assert.ok(next > servedLastModified(stored, noon + 400));
      stored = next;
    }
    assert.equal(stored, noon + 1000);
  });
});
