/**
 * The world of a client scenario: the recorded runs of the client's tasks (what sxd's servers
 * received), the run a scenario judges and its control. Nothing is sent from here: a client
 * scenario only reads what the client did.
 */

import type { ClientParameters } from "../../harness/client/run.ts";
import type { TaskRun } from "../../harness/evidence/client-evidence.ts";
import { setWorldConstructor } from "./cucumber.ts";
import { VerdictWorld } from "./verdict-world.ts";

export class ClientWorld extends VerdictWorld<ClientParameters> {
  /** The run the Then steps judge. */
  run?: TaskRun;
  /** Every run of the chosen task, the plain one first: the rows about each answer read them all. */
  runs: TaskRun[] = [];
  /** The plain run of the same task, where the judged run had a staged condition. */
  control?: TaskRun;
  /** Further runs of the task under conditions, for a row judged across them (CDIG-7). */
  staged: TaskRun[] = [];
}

setWorldConstructor(ClientWorld);
