/**
 * One server at one address, tried under labels in turn: the bundled reference on the same
 * port each time, correct, then with a rule broken, then fixed, as a team's server is across
 * its commits. What the store and sxd history are read against.
 */
import { type FaultName, startReference } from "../../reference/index.ts";
import { freePort } from "./ports.ts";

/** Correct, DIG-1 broken (the challenge answered 403), fixed. */
export const BROKEN_THEN_FIXED: ReadonlyArray<readonly [string, readonly FaultName[]]> = [
  ["correct", []],
  ["broken", ["dig-challenge-403"]],
  ["fixed", []],
];

/** `run` once a label, each time against the reference with that label's faults, at one address. */
export async function underLabels(
  labels: ReadonlyArray<readonly [string, readonly FaultName[]]>,
  run: (baseUrl: string, label: string) => Promise<void>,
): Promise<void> {
  const port = await freePort();
  for (const [label, faults] of labels) {
    const reference = await startReference({
      host: "127.0.0.1",
      ports: { base: port, contacts: 0, messaging: 0 },
      faults: [...faults],
    });
    try {
      await run(reference.urls.base, label);
    } finally {
      await reference.close();
    }
  }
}
