/**
 * The target's clock as its Date headers show it, pure. A reply's Date counts whole seconds and
 * was stamped between the request's sending and the reply's arrival, so each reply bounds how
 * far the server's clock is from this one; the bounds of every reply read, together, say from
 * when on this machine the server's clock has surely reached a given second. An update sent then
 * is dated by a clock that has passed the version before (RFC 9110 §8.8.2: dates count whole
 * seconds), so a server that waits for its clock on quick updates does not wait.
 *
 *   const clock = new ServerClock();
 *   clock.observe(Date.parse(reply.date), sentAt, receivedAt);
 *   clock.localTimeOf(Date.parse(lastModified) + 1000); // when its clock is past that second
 */

export class ServerClock {
  /** The server's clock minus this one, in ms: at least `low`, below `high`. */
  private low = Number.NEGATIVE_INFINITY;
  private high = Number.POSITIVE_INFINITY;

  /** A reply whose Date (ms, a whole second) was stamped between `sentAt` and `receivedAt` (this clock's ms). */
  observe(date: number, sentAt: number, receivedAt: number): void {
    const low = date - receivedAt;
    const high = date + 1000 - sentAt;
    if (low >= this.high || high <= this.low) {
      // Bounds that do not meet: the server's clock was set, or its Date is not its clock's. Start again.
      this.low = low;
      this.high = high;
      return;
    }
    this.low = Math.max(this.low, low);
    this.high = Math.min(this.high, high);
  }

  /** This clock's ms from which the server's clock is surely at `serverMs` or later; undefined before any Date. */
  localTimeOf(serverMs: number): number | undefined {
    return Number.isFinite(this.low) ? serverMs - this.low : undefined;
  }
}
