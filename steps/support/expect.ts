/**
 * Assertions that speak to a server author: what the row expects, what came, and the
 * exchange it came in. No stack trace: the message is the whole story.
 */
import type { Answered } from "../../harness/evidence/exchange.ts";
import { excerpt, formatExchange } from "../../harness/evidence/transcript.ts";
import { ConformanceFailure } from "../../harness/judging/step-errors.ts";

export function fail(expected: string, got: string, exchange?: Answered): never {
  const where = exchange ? `\nin the exchange:\n${indent(formatExchange(exchange))}` : "";
  // What came may be a whole body: the message keeps an excerpt, like the transcript.
  throw new ConformanceFailure(`expected ${excerpt(expected)}\nbut got ${excerpt(got)}${where}`);
}

export function expectThat(condition: boolean, expected: string, got: string, exchange?: Answered): void {
  if (!condition) fail(expected, got, exchange);
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `    ${line}`)
    .join("\n");
}
