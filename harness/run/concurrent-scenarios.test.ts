import assert from "node:assert/strict";
import { test } from "node:test";
import { inTurns } from "./concurrent-scenarios.ts";

interface Tagged {
  tags: ReadonlyArray<{ name: string }>;
}
type Named = Tagged & { name: string };

/** The rule steps/support/alone.ts gives cucumber, which a harness test may not import. */
const alone = (pickle: Tagged) => pickle.tags.some((tag) => tag.name === "@alone");
const mayStartBeside = (candidate: Tagged, running: Tagged[]) =>
  running.length === 0 || (!alone(candidate) && !running.some(alone));

/** A worker whose scenarios each take `ms` and pass unless named "fails"; it records what ran beside what. */
function fakeAdapter(ms: number) {
  const running = new Set<string>();
  const log = { most: 0, beside: new Map<string, string[]>(), order: [] as string[] };
  const adapter = {
    failing: false,
    worker: {
      options: {},
      supportCodeLibrary: { parallelCanAssign: mayStartBeside as (c: unknown, r: unknown[]) => boolean },
      runBeforeAllHooks: async () => undefined,
      runAfterAllHooks: async () => undefined,
      async runTestCase(item: { pickle: Tagged }): Promise<boolean> {
        const { name } = item.pickle as Named;
        log.order.push(name);
        running.add(name);
        log.most = Math.max(log.most, running.size);
        for (const other of running) log.beside.set(other, [...(log.beside.get(other) ?? []), ...running]);
        await new Promise((resolve) => setTimeout(resolve, ms));
        running.delete(name);
        return name !== "fails";
      },
    },
  };
  return { adapter, log };
}

const scenario = (name: string, ...tags: string[]) => ({ pickle: { name, tags: tags.map((t) => ({ name: t })) } });

test("at most so many at once, in the order given, every one run, a failure remembered", async () => {
  const { adapter, log } = fakeAdapter(5);
  const items = Array.from({ length: 10 }, (_, i) => scenario(i === 4 ? "fails" : `s${i}`));
  await inTurns(adapter, items, 3);
  assert.equal(log.most, 3);
  assert.deepEqual(
    log.order,
    items.map((i) => i.pickle.name),
  );
  assert.equal(adapter.failing, true);
});

test("a scenario tagged @alone runs with no other beside it; the others go on around it", async () => {
  const { adapter, log } = fakeAdapter(5);
  const items = [scenario("a"), scenario("outage", "@alone"), scenario("b"), scenario("c"), scenario("d")];
  await inTurns(adapter, items, 4);
  assert.deepEqual(new Set(log.beside.get("outage")), new Set(["outage"]));
  assert.equal(log.order.length, 5);
  assert.equal(adapter.failing, false);
});

test("nothing to run ends at once", async () => {
  const { adapter, log } = fakeAdapter(5);
  await inTurns(adapter, [], 4);
  assert.deepEqual(log.order, []);
});
