/**
 * How long this process has been held up: time in which it could not read its sockets, because
 * the machine gave it no core (a busy CI runner) or its own event loop was backed up (a garbage
 * collection, many scenarios' work at once). A timer that should tick every TICK_MS measures it:
 * each tick's lateness past SLACK_MS is time the process was held. A time limit on another
 * side's answer does not count that time against it (timeLimit below): sxd's reply limit
 * (harness/wire/transport.ts), and the reference messaging server's wait for the contacts server
 * (reference/export/import-store.ts). This process's pauses are not the other side's.
 * The timer runs only while someone watches, and never keeps the process alive.
 */
const TICK_MS = 50;
const SLACK_MS = 20;

let heldTotalMs = 0;
let lastTick = 0;
let ticker: NodeJS.Timeout | undefined;
let watchers = 0;

function tick(): void {
  const now = performance.now();
  const late = now - lastTick - TICK_MS;
  if (late > SLACK_MS) heldTotalMs += late;
  lastTick = now;
}

/** The milliseconds the process has been held up since watching began, the hold in progress included. */
export function heldUpMs(): number {
  if (ticker === undefined) return heldTotalMs;
  const ongoing = performance.now() - lastTick - TICK_MS;
  return heldTotalMs + (ongoing > SLACK_MS ? ongoing : 0);
}

/** Starts measuring (if no one was) until the function returned is called; calling it twice is once. */
export function watchHoldUps(): () => void {
  if (watchers++ === 0) {
    lastTick = performance.now();
    ticker = setInterval(tick, TICK_MS);
    ticker.unref();
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--watchers === 0) {
      clearInterval(ticker);
      ticker = undefined;
    }
  };
}

/**
 * A signal that aborts once `timeoutMs` have passed, counting only time in which this process
 * could have read an answer: the time it was held up is added, up to `stretch` times the limit
 * in all, so a side that never answers is still given up on in bounded time. The abort waits for
 * one turn of the loop's I/O (setImmediate runs after it): after a hold, the loop runs its expired
 * timers before it reads the sockets, and an answer received in time is read. `reason` is what
 * the signal aborts with. No timer keeps the process alive.
 */
export function timeLimit(timeoutMs: number, stretch: number, reason: () => unknown): AbortSignal {
  return endableTimeLimit(timeoutMs, stretch, reason).signal;
}

/**
 * timeLimit's signal, and `end` to call once the answer is in: the limit's timer stops and the
 * signal never aborts. Without it the timer runs out the limit after every answer and aborts a
 * signal nobody listens to any more, building its reason, for each of the thousands of requests
 * a run sends: about a twelfth of the CPU of the tests' fault runs (test/faults-digest).
 */
export function endableTimeLimit(
  timeoutMs: number,
  stretch: number,
  reason: () => unknown,
): { signal: AbortSignal; end: () => void } {
  const limit = new AbortController();
  const release = watchHoldUps();
  const started = performance.now();
  const heldBefore = heldUpMs();
  let timer: NodeJS.Timeout | undefined;
  let ended = false;
  const end = () => {
    ended = true;
    clearTimeout(timer);
    release();
  };
  const check = () => {
    const due = Math.min(timeoutMs + heldUpMs() - heldBefore, timeoutMs * stretch);
    const left = started + due - performance.now();
    if (left >= 1) {
      timer = setTimeout(check, left).unref();
      return;
    }
    release();
    setImmediate(() => {
      if (!ended) limit.abort(reason());
    });
  };
  timer = setTimeout(check, timeoutMs).unref();
  return { signal: limit.signal, end };
}
