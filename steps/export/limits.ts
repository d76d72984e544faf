/**
 * The export LIM case (ROWS.md, LIM-5): the time of the 303 for a contact list of N contacts,
 * run only where the description names users whose lists are that long. This version of sxd
 * does not measure it yet (no description key names such users, and the reference has no
 * fixture of long lists): the case is not run, saying so. It blames nobody.
 */
import type { LimitCase, LimitContext } from "../../harness/limits/case.ts";

export function limitCases(_context: LimitContext): LimitCase[] {
  return [exportSize()];
}

function exportSize(): LimitCase {
  const nothing = async () => {
    throw new Error("LIM-5 is not run: nothing to prepare or measure");
  };
  return {
    id: "LIM-5",
    size: { name: "N", unit: "contacts" },
    defaultSizes: [],
    series: [{ name: "export", unit: "ms", expected: "linear" }],
    interleaved: true,
    notRun: () =>
      "this sxd does not measure the export's size yet: no description key names users with long contact lists",
    requests: () => 0,
    prepare: nothing,
    measure: nothing,
    cleanup: async () => undefined,
  };
}
