/** What every reference module is given: where the servers are, and how to misbehave. */
import type { FaultName } from "./faults.ts";

export type Variant = "standard" | "alternative";

export interface ServerUrls {
  /** Public base URLs, without a trailing slash: what absolute links are built from. */
  base: string;
  contacts: string;
  messaging: string;
}

export interface ReferenceContext {
  urls: ServerUrls;
  faults: ReadonlySet<FaultName>;
  /**
   * `alternative` makes the other allowed choice wherever the spec says "not shown", so
   * the suite can prove it does not mistake our choices for the spec's rules.
   */
  variant: Variant;
}

export interface FaultInfo {
  /** The rows a conformance run against this fault must report as failed. */
  breaks: readonly string[];
  description: string;
}
