/**
 * Assertions that speak to a server author: what the row expects, what came, and the
 * exchange it came in. No stack trace: the message is the whole story.
 */
import type { Answered } from "../../harness/evidence/exchange.ts";
import { failureText } from "../../harness/evidence/transcript.ts";
import { ConformanceFailure } from "../../harness/judging/step-errors.ts";

export function fail(expected: string, got: string, exchange?: Answered): never {
  throw new ConformanceFailure(failureText(expected, got, exchange));
}

export function expectThat(condition: boolean, expected: string, got: string, exchange?: Answered): void {
  if (!condition) fail(expected, got, exchange);
}
