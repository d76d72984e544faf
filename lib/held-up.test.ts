import assert from "node:assert/strict";
import { once } from "node:events";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { endableTimeLimit, heldUpMs, watchHoldUps } from "./held-up.ts";

/** The limit's timers keep no process alive: the test's wait does. */
async function keptAlive<T>(waiting: Promise<T>): Promise<T> {
  const alive = setInterval(() => undefined, 1000);
  try {
    return await waiting;
  } finally {
    clearInterval(alive);
  }
}

test("a time limit not ended aborts with its reason once the limit has passed", async () => {
  const reason = new Error("too late");
  const { signal } = endableTimeLimit(20, 3, () => reason);
  await keptAlive(once(signal, "abort"));
  assert.equal(signal.reason, reason);
});

test("a time limit ended before its time never aborts, and stops watching the process", async () => {
  let built = 0;
  const { signal, end } = endableTimeLimit(20, 3, () => {
    built++;
    return new Error("too late");
  });
  end();
  end();
  // Past the limit and its stretch: an abort would have come by now.
  await keptAlive(sleep(100));
  assert.equal(signal.aborted, false);
  assert.equal(built, 0, "no reason is built for a limit that ended");
  // Nobody watches any more: the held-up clock stands still until someone does again.
  const before = heldUpMs();
  const release = watchHoldUps();
  release();
  assert.equal(heldUpMs(), before);
});
