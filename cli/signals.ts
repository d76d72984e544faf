/**
 * The shell's Ctrl-C: the first SIGINT or SIGTERM tells the run to start no further scenario
 * (harness/run/run.ts finishes the running ones and writes the reports); a second one does not
 * wait. Only the shell touches the process's signals and its exit.
 */

/** What a shell exits with after a signal: 128 + its number. */
const SIGNAL_EXIT_CODES: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143 };

export function signalExitCode(signal: NodeJS.Signals): number {
  return SIGNAL_EXIT_CODES[signal] ?? 1;
}

/** Listens for SIGINT and SIGTERM until the returned function is called (ConformanceRun.interruptions). */
export function processSignals(interrupt: (signal: NodeJS.Signals) => void): () => void {
  let first: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    // A second Ctrl-C does not wait for the running scenarios.
    if (first) process.exit(signalExitCode(signal));
    first = signal;
    interrupt(signal);
  };
  process.on("SIGINT", onSignal).on("SIGTERM", onSignal);
  return () => {
    process.off("SIGINT", onSignal).off("SIGTERM", onSignal);
  };
}
