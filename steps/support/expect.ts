/**
 * Assertions that speak to a server author: what the row expects, what came, and the
 * exchange it came in. No stack trace: the message is the whole story.
 */
import { type Answered, formatExchange } from "./http.ts";

export class ConformanceFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConformanceFailure";
    // Cucumber prints the stack; for an expected failure the message is all that helps.
    this.stack = message;
  }
}

export function fail(expected: string, got: string, exchange?: Answered): never {
  const where = exchange ? `\nin the exchange:\n${indent(formatExchange(exchange))}` : "";
  throw new ConformanceFailure(`expected ${expected}\nbut got ${got}${where}`);
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
