/**
 * Measures what the reference's nonce log costs in memory: the heap after 100,000
 * challenges (nonces issued, never used), then after 100,000 successful uses (each
 * entering the bounded log). Run: node --import tsx --expose-gc scripts/nonce-memory.ts
 */
import { DEFAULT_CAPACITY, NonceStore, rulesFor } from "../reference/digest/nonces.ts";

const COUNT = 100_000;

function heapAfterGc(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("run with node --expose-gc, or the numbers mean nothing");
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

const store = new NonceStore(rulesFor("one-time"));
const before = heapAfterGc();

// Kept alive, so that the heap holds whatever the store would keep for them.
const issued: string[] = [];
for (let i = 0; i < COUNT; i++) issued.push(store.issue());
const challenged = heapAfterGc();
const noncesThemselves = issued.reduce((sum, nonce) => sum + nonce.length, 0);
issued.length = 0;
const afterChallenges = heapAfterGc();
const entriesAfterChallenges = store.size;

for (let i = 0; i < COUNT; i++) store.use(store.issue(), 1);
const afterUses = heapAfterGc();

console.log(
  `after ${COUNT} challenges: log entries ${entriesAfterChallenges}, heap growth ${kib(afterChallenges - before)}`,
);
console.log(
  `  (the ${COUNT} nonce strings themselves, held by the script: ${kib(challenged - before)}, ${noncesThemselves} characters)`,
);
console.log(
  `after ${COUNT} successful uses: log entries ${store.size} (capacity ${DEFAULT_CAPACITY}), heap growth ${kib(afterUses - before)}`,
);
