/**
 * The run's limits: a deadline, and a breaker that gives up on a target that plainly stopped
 * answering. Scenarios that have not started when either trips are not run, with the reason;
 * requests after the breaker opens are not sent, so clean-ups do not wait out the timeout.
 *
 * Under `--parallel` every worker is a process of its own, so the state lives in a folder the
 * CLI makes for the run: a log each request appends one byte to (atomic appends, no lock) and,
 * once the breaker opens, a file that says why. Example: with `failuresInARow: 3`, three
 * requests in a row, from any workers, that got no reply open the breaker for the rest of the run.
 */
import {
  appendFileSync,
  closeSync,
  existsSync,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";

export interface RunLimitsParameters {
  /** A folder of this run's own, shared by every worker. */
  stateDir: string;
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

export class RunLimits {
  private readonly log: string;
  private readonly open: string;

  constructor(private readonly parameters: RunLimitsParameters) {
    this.log = join(parameters.stateDir, REQUESTS);
    this.open = join(parameters.stateDir, "breaker-open");
  }

  /** Why no more requests go to the target, or undefined while they may. */
  refusal(): string | undefined {
    return existsSync(this.open) ? readFileSync(this.open, "utf8") : undefined;
  }

  /** No scenario starts any more (Ctrl-C); those running finish. */
  static interrupt(stateDir: string, reason: string): void {
    writeFileSync(join(stateDir, INTERRUPTED), reason);
  }

  /** Why a scenario that has not started yet is not run, or undefined when it may run. */
  stopReason(now = Date.now()): string | undefined {
    const interrupted = join(this.parameters.stateDir, INTERRUPTED);
    return (
      this.refusal() ??
      (existsSync(interrupted) ? readFileSync(interrupted, "utf8") : undefined) ??
      (now > this.parameters.deadlineAt
        ? `the run's deadline of ${this.parameters.deadlineSeconds} s had passed (see --deadline)`
        : undefined)
    );
  }

  /** Gives up on the target for the rest of the run, for the reason given (the first one stays). */
  stop(reason: string): void {
    if (!existsSync(this.open)) writeFileSync(this.open, reason);
  }

  record(answered: boolean): void {
    appendFileSync(this.log, answered ? ANSWERED : NO_REPLY);
    if (answered) return;
    const n = this.parameters.failuresInARow;
    if (this.lastEntries(n) === NO_REPLY.repeat(n))
      this.stop(`the target stopped answering: ${n} transport failures in a row`);
  }

  /** Requests sent so far in the run whose state is in `stateDir`, answered or not. */
  static requestsSent(stateDir: string): number {
    const log = join(stateDir, REQUESTS);
    return existsSync(log) ? statSync(log).size : 0;
  }

  /** The last `n` entries of the log, read from its end: the log grows with the run. */
  private lastEntries(n: number): string {
    const fd = openSync(this.log, "r");
    try {
      const { size } = fstatSync(fd);
      const buffer = Buffer.alloc(Math.min(n, size));
      readSync(fd, buffer, 0, buffer.length, size - buffer.length);
      return buffer.toString("latin1");
    } finally {
      closeSync(fd);
    }
  }
}
