/**
 * How long this process has been held up: time in which it could not read its sockets, because
 * the machine gave it no core (a busy CI runner) or its own event loop was backed up (a garbage
 * collection, many scenarios' work at once). A timer that should tick every TICK_MS measures it:
 * each tick's lateness past SLACK_MS is time the process was held. A reply's time limit does not
 * count that time against the target (transport.ts): the suite's pauses are not the target's.
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
