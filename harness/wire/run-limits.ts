/**
 * The run's limits: a deadline, and a breaker that gives up on a target that plainly stopped
 * answering. Scenarios that have not started when either trips are not run, with the reason;
 * requests after the breaker opens are not sent, so clean-ups do not wait out the timeout.
 *
 * The state is the run's (run-state.ts: in memory, or in files its workers share under
 * `--parallel`): a log each request appends one byte to (atomic appends, no lock) and, once the
 * breaker opens, a note that says why. Example: with `failuresInARow: 3`, three
 * requests in a row, from any workers, that got no reply open the breaker for the rest of the run.
 */
import { type RunState, type RunStatePlace, runState } from "./run-state.ts";

export interface RunLimitsParameters extends RunStatePlace {
  /** Epoch milliseconds after which no scenario starts. */
  deadlineAt: number;
  /** The deadline as the user gave it, for the reason. */
  deadlineSeconds: number;
  /** Requests in a row without a reply that make the run give up on the target. */
  failuresInARow: number;
}

const REQUESTS = "requests";
const ANSWERED = "a";
const NO_REPLY = "n";
const INTERRUPTED = "interrupted";
const BREAKER_OPEN = "breaker-open";

export class RunLimits {
  private readonly state: RunState;

  constructor(private readonly parameters: RunLimitsParameters) {
    this.state = runState(parameters);
  }

  /** Why no more requests go to the target, or undefined while they may. */
  refusal(): string | undefined {
    return this.state.read(BREAKER_OPEN);
  }

  /** No scenario starts any more (Ctrl-C); those running finish. */
  static interrupt(place: RunStatePlace, reason: string): void {
    runState(place).write(INTERRUPTED, reason);
  }

  /** Why a scenario that has not started yet is not run, or undefined when it may run. */
  stopReason(now = Date.now()): string | undefined {
    return (
      this.refusal() ??
      this.state.read(INTERRUPTED) ??
      (now > this.parameters.deadlineAt
        ? `the run's deadline of ${this.parameters.deadlineSeconds} s had passed (see --deadline)`
        : undefined)
    );
  }

  /** Gives up on the target for the rest of the run, for the reason given (the first one stays). */
  stop(reason: string): void {
    this.state.write(BREAKER_OPEN, reason, true);
  }

  record(answered: boolean): void {
    this.state.append(REQUESTS, answered ? ANSWERED : NO_REPLY);
    if (answered) return;
    const n = this.parameters.failuresInARow;
    if (this.lastEntries(n) === NO_REPLY.repeat(n))
      this.stop(`the target stopped answering: ${n} transport failures in a row`);
  }

  /** Requests sent so far in the run whose state is at `place`, answered or not. */
  static requestsSent(place: RunStatePlace): number {
    return runState(place).size(REQUESTS);
  }

  /**
   * The last `n` entries of the log, read from its end: the log grows with the run (and, with
   * workers, may grow between the size and the read).
   */
  private lastEntries(n: number): string {
    return this.state.readFrom(REQUESTS, Math.max(0, this.state.size(REQUESTS) - n)).slice(-n);
  }
}
