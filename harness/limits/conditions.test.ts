import assert from "node:assert/strict";
import { test } from "node:test";
import { underOneCondition } from "./conditions.ts";

test("repeats measured under another condition than most are left out of the points, and named", () => {
  const after = "after the server's clock passed the version before";
  const held = "while the server held the update for its next second";
  const { kept, apart } = underOneCondition(
    new Map([
      [
        10,
        [
          { cost: { PUT: 4 }, under: after },
          { cost: { PUT: 5 }, under: after },
        ],
      ],
      [
        100,
        [
          { cost: { PUT: 980 }, under: held },
          { cost: { PUT: 6 }, under: after },
        ],
      ],
    ]),
    "N",
  );
  assert.deepEqual(
    [...kept],
    [
      [10, [{ PUT: 4 }, { PUT: 5 }]],
      [100, []],
    ],
  );
  assert.equal(
    apart,
    `not classed with the repeats measured ${after}, those measured otherwise: N = 100: 1 of 2 ${held}; N = 100 left out: no more than half its repeats measured alike, too few to show a spread`,
  );
});

test("where every repeat was measured alike, all are kept and nothing is said", () => {
  const { kept, apart } = underOneCondition(new Map([[1, [{ cost: { GET: 1 } }, { cost: { GET: 2 } }]]]), "K");
  assert.deepEqual([...kept], [[1, [{ GET: 1 }, { GET: 2 }]]]);
  assert.equal(apart, undefined);
});

test("a size with no more than half its repeats measured alike gives no point: one repeat shows no spread", () => {
  const after = "after the server's clock passed the version before";
  const held = "while the server held the update for its next second";
  const { kept, apart } = underOneCondition(
    new Map([
      [
        1,
        [
          { cost: { PUT: 4 }, under: after },
          { cost: { PUT: 5 }, under: after },
          { cost: { PUT: 4 }, under: after },
        ],
      ],
      [
        10,
        [
          { cost: { PUT: 6 }, under: after },
          { cost: { PUT: 990 }, under: held },
          { cost: { PUT: 985 }, under: held },
        ],
      ],
    ]),
    "N",
  );
  assert.deepEqual(kept.get(10), []);
  assert.equal(kept.get(1)?.length, 3);
  assert.match(
    apart ?? "",
    /; N = 10 left out: no more than half its repeats measured alike, too few to show a spread$/,
  );
});
