/**
 * The world of a client scenario: the recorded runs of the client's tasks (what sxd's servers
 * received), the run a scenario judges and its control. Nothing is sent from here: a client
 * scenario only reads what the client did.
 */

import type { TaskRun } from "../../harness/client/evidence.ts";
import type { ClientParameters } from "../../harness/client/run.ts";
import { NOT_APPLICABLE_MEDIA_TYPE, NOT_RUN_MEDIA_TYPE } from "../../harness/outcomes.ts";
import { setWorldConstructor, World } from "./cucumber.ts";

export class ClientWorld extends World<ClientParameters> {
  /** The run the Then steps judge. */
  run?: TaskRun;
  /** Every run of the chosen task, the plain one first: the rows about each answer read them all. */
  runs: TaskRun[] = [];
  /** The plain run of the same task, where the judged run had a staged condition. */
  control?: TaskRun;
  /** Further runs of the task under conditions, for a row judged across them (CDIG-7). */
  staged: TaskRun[] = [];

  /** Marks the scenario as not run (or not applicable) with the reason; return its value from the step. */
  skipped(reason: string, as: "not run" | "not applicable" = "not run"): "skipped" {
    this.attach(reason, as === "not run" ? NOT_RUN_MEDIA_TYPE : NOT_APPLICABLE_MEDIA_TYPE);
    return "skipped";
  }
}

setWorldConstructor(ClientWorld);
