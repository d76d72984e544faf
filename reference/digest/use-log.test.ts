import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { UseLog } from "./use-log.ts";

/** A Map in insertion order does what the log does, slowly: the model the log is checked against. */
function checkAgainstModel(sequences: (step: number) => number, steps: number, keep: number) {
  const log = new UseLog();
  const model = new Map<number, { issuedAt: number; uses: number; lastNc: number }>();
  for (let step = 0; step < steps; step++) {
    const sequence = sequences(step);
    const found = log.find(sequence);
    const modelled = model.get(sequence);
    assert.equal(found >= 0, modelled !== undefined, `step ${step}: sequence ${sequence} found`);
    if (found >= 0 && modelled) {
      assert.equal(log.issuedAt(found), modelled.issuedAt);
      assert.equal(log.usesAt(found), modelled.uses);
      log.recordUse(found, step);
      modelled.uses++;
      modelled.lastNc = step;
      assert.equal(log.lastNcAt(found), step);
    } else {
      log.add(sequence, sequence * 10, step, `nonce ${sequence}`);
      model.set(sequence, { issuedAt: sequence * 10, uses: 1, lastNc: step });
    }
    while (log.size > keep) {
      const oldest = log.oldest();
      const [first] = model.keys();
      assert.equal(log.sequenceAt(oldest), first);
      assert.equal(log.textAt(oldest), `nonce ${first}`);
      log.dropOldest();
      model.delete(first);
    }
    assert.equal(log.size, model.size);
  }
  for (const sequence of model.keys()) assert.ok(log.find(sequence) >= 0);
}

describe("UseLog", () => {
  it("finds what it holds and nothing else, through growth and churn, as a Map in insertion order does", () => {
    // Sequences repeat (uses of a logged nonce), stride (hashing alike in a naive index) and churn.
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    checkAgainstModel(() => random() % 400, 5000, 150);
    checkAgainstModel((step) => step * 1024, 3000, 300);
    checkAgainstModel((step) => (step % 3 === 0 ? step : step - 1) + 2 ** 40, 3000, 100);
  });

  it("is empty at first and after its entries leave", () => {
    const log = new UseLog();
    assert.equal(log.oldest(), -1);
    log.add(5, 50, 1, "five");
    assert.equal(log.size, 1);
    log.dropOldest();
    assert.equal(log.oldest(), -1);
    assert.equal(log.find(5), -1);
  });
});
