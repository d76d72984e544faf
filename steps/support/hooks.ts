/** After every scenario: clean up, attach the transcript, and name the rows a failure breaks. */

import { scenarioNeeds, unstatedReason } from "../../harness/description/target.ts";
import { formatExchange, recordable } from "../../harness/evidence/transcript.ts";
import { readTags, rowsById } from "../../harness/judging/catalogue.ts";
import { EXCHANGES_MEDIA_TYPE } from "../../harness/judging/outcomes.ts";
import { scenarioLabel } from "../../harness/judging/scenarios.ts";
import { After, Before, setDefaultTimeout } from "./cucumber.ts";
import { addSentBackendRequests } from "./peer.ts";
import type { SxdWorld } from "./world.ts";

/**
 * Cucumber's limit on a step, fixed when this module loads, before any world parameter exists:
 * it only catches a step that never ends (a bug in the suite). A step's real bounds are its
 * requests' own, --timeout each (the world's timeoutMs) and the waits on 429s
 * (REQUEST_WAIT_MS). Ten minutes leaves four requests two minutes each, with their waits.
 */
const STEP_SAFETY_NET_MS = 10 * 60 * 1000;
setDefaultTimeout(STEP_SAFETY_NET_MS);

const catalogue = rowsById();

// Ctrl-C reaches every process of the terminal; in a parallel worker the main process decides
// (it lets the running scenarios finish and writes the reports), so the worker carries on.
if (process.env.CUCUMBER_WORKER_ID !== undefined) process.on("SIGINT", () => undefined);

// Each request names its scenario (X-Sxd-Scenario), so a server's log can be matched with the report.
Before({ name: "name the scenario in its requests" }, function (this: SxdWorld, { pickle }) {
  const { rows } = readTags(pickle.tags.map((t) => t.name));
  this.http.scenario = scenarioLabel(rows, pickle.name);
});

/**
 * Silence is not "no", nor the reference's choice: a behaviour whose keys the description left
 * out (where its resources are, its user, the export servers) has its rows not run, naming the
 * keys. The feature's folder names the behaviour. Registered after the peer's hook, so a row of
 * the side sxd played stays not applicable.
 */
Before({ name: "the description states the behaviour" }, function (this: SxdWorld, { pickle }) {
  const { behaviour, sends } = scenarioNeeds(
    pickle.uri,
    pickle.tags.map((tag) => tag.name),
  );
  const reason = behaviour && unstatedReason(this.target, behaviour, sends);
  return reason ? this.notRun(reason) : undefined;
});

After(async function (this: SxdWorld, { pickle, result }) {
  for (const task of this.cleanups) {
    try {
      await task();
    } catch {
      // A failed clean-up must not hide the scenario's own verdict.
    }
  }
  if (result?.status === "FAILED") {
    // Cucumber prints attachments under a failure: the reader learns which rule broke.
    const { rows, levels } = readTags(pickle.tags.map((t) => t.name));
    const level = levels[0] ?? "must";
    const broken = rows.map((id) => {
      const row = catalogue.get(id);
      const rule = level === "should" && row?.should ? row.should : row?.rule;
      return `This breaks ${id} (${level.toUpperCase()}): ${rule ?? "unknown row"}`;
    });
    this.attach(broken.join("\n"), "text/plain");
  }
  try {
    await addSentBackendRequests(this);
  } catch (error) {
    // The transcript still holds every request sxd sent itself; the reader learns what is missing.
    this.attach(
      `the backend requests sxd's messaging server sent could not be read from it: ${(error as Error).message}`,
      "text/plain",
    );
  }
  const exchanges = this.http.exchanges;
  if (exchanges.length > 0) {
    this.attach(exchanges.map(formatExchange).join("\n\n"), "text/plain");
    this.attach(JSON.stringify(exchanges.map(recordable)), EXCHANGES_MEDIA_TYPE);
  }
  await this.http.close();
});
