/**
 * Assertions that speak to a server author: what the row expects, what came, and the
 * exchange it came in. No stack trace: the message is the whole story.
 */
import { type Answered, formatExchange, shorten } from "../../harness/exchange.ts";
import { MessageOnlyError } from "./http.ts";

/** The target answered, but not as the row requires. */
export class ConformanceFailure extends MessageOnlyError {
  constructor(message: string) {
    super(message);
    this.name = "ConformanceFailure";
  }
}

export function fail(expected: string, got: string, exchange?: Answered): never {
  const where = exchange ? `\nin the exchange:\n${indent(formatExchange(exchange))}` : "";
  // What came may be a whole body: the message keeps an excerpt, like the transcript.
  throw new ConformanceFailure(`expected ${shorten(expected)}\nbut got ${shorten(got)}${where}`);
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
