import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sameText } from "./same-text.ts";

describe("sameText", () => {
  it("is true only for the same code units", () => {
    assert.equal(sameText("0a1b", "0a1b"), true);
    assert.equal(sameText("", ""), true);
    assert.equal(sameText("0a1b", "0a1c"), false);
    assert.equal(sameText("0a1b", "1a1b"), false);
    assert.equal(sameText("0a1b", "0A1B"), false);
    assert.equal(sameText("0a1b", "0a1"), false);
    assert.equal(sameText("0a1", "0a1b"), false);
    // Code units, not bytes: these differ only above the low byte.
    assert.equal(sameText("a", "\u0161"), false);
  });
});
