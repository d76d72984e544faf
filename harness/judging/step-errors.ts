/**
 * The errors a step throws, one class for each way a scenario can end early. The outcome
 * reader (outcomes.ts) tells them apart by class alone, which cucumber records as the
 * exception's type; it never reads their words, which may quote whatever the target sent.
 */

/**
 * An error whose message is the whole story: what the target did, with the exchange. It has
 * no stack. Cucumber runs a stack trace parser over `stack` whose regular expression takes
 * exponential time on a long line with many `"`, such as one-line XML or a challenge with
 * many quoted parameters; an empty stack is refused by that parser at once, and cucumber
 * then reports the message alone, once.
 */
export class MessageOnlyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
    this.stack = "";
  }
}

/** The target answered, but not as the row requires: the scenario failed. */
export class ConformanceFailure extends MessageOnlyError {}

/** The target gave no usable reply (refused, reset, timed out, too large): the scenario failed. */
export class TransportError extends MessageOnlyError {}

/**
 * sxd chose not to send a request: the run had given up on the target (the breaker, the
 * deadline, an interruption). The scenario is not run, whatever the target would have said;
 * the message is the reason, as the reports show it.
 */
export class RequestNotSent extends MessageOnlyError {}

/**
 * The target (or its gateway) kept refusing a request with 429 for longer than sxd waits: the
 * scenario is not run, but it did reach the target, so the run is incomplete, not empty.
 */
export class RateLimited extends MessageOnlyError {}

/**
 * A path the target description gave answered 404 before it answered anything else: the
 * description does not fit the server (a path it never had), so the scenario is not run,
 * naming the key to correct. A path sxd made itself, or one that already answered otherwise,
 * is known to be right: a 404 there is the server's and fails as any wrong status does.
 */
export class DescriptionUnfit extends MessageOnlyError {
  constructor(key: string, request: string, hint: string) {
    super(doesNotFit(key, request, hint));
  }
}

/**
 * What a scenario not run for a described path that answered 404 says: the key to correct, and
 * the request as the description makes it (the same in every scenario, so the rows share a line).
 */
export function doesNotFit(key: string, request: string, hint: string): string {
  return `${key} does not fit the server (404 to ${request}): ${hint}`;
}
