/** What a fault mode of the reference declares: the rows it breaks and what it does. */
export interface FaultInfo {
  /** The rows a conformance run against this fault must report as failed. */
  breaks: readonly string[];
  /**
   * The LIM cases (sxd limits) whose cost the fault makes grow with the size; the others stay
   * flat. A fault that only grows breaks no row: sxd test passes against it.
   */
  grows?: readonly string[];
  description: string;
}
