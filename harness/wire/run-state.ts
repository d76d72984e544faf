/**
 * What a run's scenarios share while it runs (run-limits.ts, rate-limits.ts): logs that only
 * grow, and notes written once (why the breaker opened, the interruption). Under `--parallel`
 * every worker is a process of its own, so the state lives in files of the run's state folder
 * (appends are atomic: every process reads them in one order). A run of one process keeps it
 * in memory: a request's appends and reads through files cost about a third of a millisecond
 * here, a twentieth of the suite's time.
 *
 *   const state = runState({ stateDir, workers: false });
 *   state.append("requests", "a");  state.readFrom("requests", 0);  // "a"
 *   state.write("breaker-open", "why");  state.read("breaker-open"); // "why"
 *   forgetRunState(stateDir);  // at the run's end, with its folder
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

/** Where a run's state is: its folder, and whether workers of their own share it. */
export interface RunStatePlace {
  /** The run's own folder, made by the run (harness/run/run.ts). */
  stateDir: string;
  /** The run's scenarios run in worker processes (--parallel above 1): the state is in files. */
  workers?: boolean;
}

export interface RunState {
  /** Appends to the log `name` (made on the first append). */
  append(name: string, text: string): void;
  /** What the log `name` holds from character `offset` on ("" for a log not made yet). */
  readFrom(name: string, offset: number): string;
  /** The length of the log `name`, 0 for a log not made yet. */
  size(name: string): number;
  /** The note `name`, or undefined while none is written. */
  read(name: string): string | undefined;
  /** Writes the note `name`; where `first`, a note already written stays. */
  write(name: string, text: string, first?: boolean): void;
}

/**
 * A log kept as the pieces appended, each with where it starts: a read from an offset copies
 * only what lies past it. (One string grown by each append was copied whole by every read, and
 * the pace log is read on every request: a run of a hundred thousand requests, as sxd limits
 * sends, slowed with its own length.)
 */
class MemoryLog {
  private readonly pieces: string[] = [];
  private readonly starts: number[] = [];
  length = 0;

  append(text: string): void {
    this.starts.push(this.length);
    this.pieces.push(text);
    this.length += text.length;
  }

  readFrom(offset: number): string {
    if (offset >= this.length) return "";
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.starts[middle] <= offset) low = middle;
      else high = middle - 1;
    }
    const first = this.pieces[low].slice(Math.max(0, offset - this.starts[low]));
    return low === this.pieces.length - 1 ? first : first + this.pieces.slice(low + 1).join("");
  }
}

class InMemory implements RunState {
  private readonly logs = new Map<string, MemoryLog>();
  private readonly notes = new Map<string, string>();

  append(name: string, text: string): void {
    let log = this.logs.get(name);
    if (log === undefined) {
      log = new MemoryLog();
      this.logs.set(name, log);
    }
    log.append(text);
  }

  readFrom(name: string, offset: number): string {
    return this.logs.get(name)?.readFrom(offset) ?? "";
  }

  size(name: string): number {
    return this.logs.get(name)?.length ?? 0;
  }

  read(name: string): string | undefined {
    return this.notes.get(name);
  }

  write(name: string, text: string, first = false): void {
    if (!(first && this.notes.has(name))) this.notes.set(name, text);
  }
}

/** Logs in latin1, one byte a character, so that an offset is a position in the file. */
class InFiles implements RunState {
  constructor(private readonly folder: string) {}

  append(name: string, text: string): void {
    appendFileSync(join(this.folder, name), text, "latin1");
  }

  readFrom(name: string, offset: number): string {
    const file = join(this.folder, name);
    if (!existsSync(file)) return "";
    const fd = openSync(file, "r");
    try {
      const buffer = Buffer.alloc(Math.max(0, fstatSync(fd).size - offset));
      readSync(fd, buffer, 0, buffer.length, offset);
      return buffer.toString("latin1");
    } finally {
      closeSync(fd);
    }
  }

  size(name: string): number {
    const file = join(this.folder, name);
    return existsSync(file) ? statSync(file).size : 0;
  }

  read(name: string): string | undefined {
    const file = join(this.folder, name);
    return existsSync(file) ? readFileSync(file, "utf8") : undefined;
  }

  write(name: string, text: string, first = false): void {
    const file = join(this.folder, name);
    if (!(first && existsSync(file))) writeFileSync(file, text);
  }
}

/** The state of each run of this process, by its folder. */
const states = new Map<string, RunState>();

/** The state of the run whose folder is `stateDir`: the same object for every scenario of the process. */
export function runState({ stateDir, workers = false }: RunStatePlace): RunState {
  let state = states.get(stateDir);
  if (state === undefined) {
    state = workers ? new InFiles(stateDir) : new InMemory();
    states.set(stateDir, state);
  }
  return state;
}

/** Forgets a run's state, at its end (its folder goes with it). */
export function forgetRunState(stateDir: string): void {
  states.delete(stateDir);
}
