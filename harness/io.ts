/**
 * The streams a run writes to: its progress and summary on stdout, its notes and problems on
 * stderr. The shell passes the process's, a test its own; every kind of run takes them alike.
 */
import type { Writable } from "node:stream";

export interface Io {
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable;
}
