/** What a fault mode of the reference declares: the rows it breaks and what it does. */
export interface FaultInfo {
  /** The rows a conformance run against this fault must report as failed. */
  breaks: readonly string[];
  description: string;
}
