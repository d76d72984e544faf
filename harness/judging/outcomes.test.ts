import assert from "node:assert/strict";
import { test } from "node:test";
import { generateMessages } from "@cucumber/gherkin";
import { type Envelope, IdGenerator, SourceMediaType } from "@cucumber/messages";
import { caseNames, OutcomeCollector, type ScenarioOutcome } from "./outcomes.ts";
import { ConformanceFailure, RateLimited, RequestNotSent, TransportError } from "./step-errors.ts";

const FEATURE = `Feature: Defects
  @DIG-12 @should
  Scenario Outline: A defect is refused (<kind>)
    Given a request with <kind>

    Examples:
      | kind | value                                              |
      | nc   | 1                                                  |
      | nc   | 0000000g                                           |
      | uri  | /another/path/that/is/rather/long/for/a/test/name  |
`;

/** The envelopes cucumber would send for the feature, every scenario run for `ms`, with `result` (default: passed). */
function run(ms: number, result: object = { status: "PASSED" }): Envelope[] {
  const source = generateMessages(FEATURE, "features/d.feature", SourceMediaType.TEXT_X_CUCUMBER_GHERKIN_PLAIN, {
    includeGherkinDocument: true,
    includePickles: true,
    newId: IdGenerator.incrementing(),
  });
  const pickles = source.flatMap((e) => (e.pickle ? [e.pickle] : []));
  const at = (millis: number) => ({ seconds: Math.floor(millis / 1000), nanos: (millis % 1000) * 1e6 });
  const runs: Envelope[] = pickles.flatMap((pickle, i) => [
    { testCase: { id: `tc${i}`, pickleId: pickle.id, testSteps: [] } },
    { testCaseStarted: { id: `s${i}`, testCaseId: `tc${i}`, attempt: 0, timestamp: at(1000) } },
    {
      testStepFinished: {
        testCaseStartedId: `s${i}`,
        testStepId: "x",
        testStepResult: { ...result, duration: at(ms) },
        timestamp: at(1000 + ms),
      },
    },
    { testCaseFinished: { testCaseStartedId: `s${i}`, willBeRetried: false, timestamp: at(1000 + ms) } },
  ]) as Envelope[];
  return [...source, ...runs];
}

test("an outline's outcome carries its Examples row, its line and its duration", () => {
  const collector = new OutcomeCollector();
  for (const envelope of run(250)) collector.add(envelope);
  const outcomes = collector.outcomes();
  assert.deepEqual(
    outcomes.map((o) => [o.name, o.examples, o.location, o.rows, o.level, o.status]),
    [
      ["A defect is refused (nc)", "kind: nc, value: 1", "features/d.feature:8", ["DIG-12"], "should", "passed"],
      ["A defect is refused (nc)", "kind: nc, value: 0000000g", "features/d.feature:9", ["DIG-12"], "should", "passed"],
      [
        "A defect is refused (uri)",
        "kind: uri, value: /another/path/that/is/rather/long/for/a…",
        "features/d.feature:10",
        ["DIG-12"],
        "should",
        "passed",
      ],
    ],
  );
  assert.equal(outcomes[0].durationMs, 250);
  assert.equal(collector.outcome("s1")?.examples, "kind: nc, value: 0000000g");
  assert.equal(collector.outcome("nope"), undefined);
});

test("names that repeat get their Examples row, and names that still repeat their location", () => {
  const base = { rows: ["DIG-12"], level: "should" as const, status: "passed" as const, attachments: [] };
  const cases: ScenarioOutcome[] = [
    { ...base, name: "A (nc)", examples: "nc: 1", location: "f:8" },
    { ...base, name: "A (nc)", examples: "nc: 2", location: "f:9" },
    { ...base, name: "A (uri)", examples: "uri: /x", location: "f:10" },
    { ...base, name: "B", location: "g:3" },
    { ...base, name: "B", location: "g:9" },
  ];
  assert.deepEqual(caseNames(cases), ["A (nc) [nc: 1]", "A (nc) [nc: 2]", "A (uri)", "B (g:3)", "B (g:9)"]);
});

test("a request sxd did not send is not run by its error's class alone, never by words in a message", () => {
  const reason = "the target stopped answering: 3 transport failures in a row";
  const outcomeOf = (exception: { type: string; message: string }) => {
    const collector = new OutcomeCollector();
    for (const envelope of run(5, { status: "FAILED", message: exception.message, exception })) collector.add(envelope);
    const [first] = collector.outcomes();
    return [first.status, first.message, first.rateLimited];
  };
  assert.deepEqual(outcomeOf({ type: RequestNotSent.name, message: reason }), ["not run", reason, undefined]);
  const refused = "GET http://t/x: the target kept answering 429 for 30 s (rate-limited; see --rate)";
  assert.deepEqual(outcomeOf({ type: RateLimited.name, message: refused }), ["not run", refused, true]);
  // The same words in any other failure are the target's failure: a reply may say anything.
  const quoted = `expected status 303\nbut got status 500\nin the exchange:\n   < <error>not sent: ${reason}</error>`;
  assert.equal(outcomeOf({ type: ConformanceFailure.name, message: quoted })[0], "failed");
  assert.equal(outcomeOf({ type: TransportError.name, message: `GET http://t/x: not sent: ${reason}` })[0], "failed");
  assert.equal(outcomeOf({ type: "Error", message: refused })[0], "failed");
});
