/**
 * The export LIM case (ROWS.md, LIM-5): the time of the 303 for a contact list of N contacts.
 * Only the description can say which users have lists that long: without export.longLists the
 * case is not run, naming the key.
 */
import type { LimitCase, LimitContext } from "../../harness/limits/case.ts";

export function limitCases(context: LimitContext): LimitCase[] {
  return [exportSize(context)];
}

function exportSize(_context: LimitContext): LimitCase {
  return {
    id: "LIM-5",
    size: { name: "N", unit: "contacts" },
    defaultSizes: [],
    series: [{ name: "export", unit: "ms", expected: "linear" }],
    interleaved: true,
    notRun: () =>
      "the target description names no users with long contact lists: state export.longLists (each user's number of contacts)",
    requests: () => 0,
    prepare: async () => undefined,
    measure: async () => ({}),
    cleanup: async () => undefined,
  };
}
