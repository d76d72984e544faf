/**
 * What every scenario's world says besides pass and fail, on both sides: not run, not
 * applicable, and what a pass rests on. The server world (world.ts) and the client world
 * (client-world.ts) both extend it, so a step marks a scenario the same way on either side.
 */
import { NOT_APPLICABLE_MEDIA_TYPE, NOT_RUN_MEDIA_TYPE, OBSERVED_MEDIA_TYPE } from "../../harness/judging/outcomes.ts";
import { World } from "./cucumber.ts";

export class VerdictWorld<Parameters> extends World<Parameters> {
  /**
   * Marks the scenario as not run and says why: the row applies, but sxd cannot check it here
   * (a URL is missing, an outage cannot be staged, a recording cannot show it). Return its
   * value from the step. A MUST row left not run makes the run incomplete.
   */
  notRun(reason: string): "skipped" {
    this.attach(reason, NOT_RUN_MEDIA_TYPE);
    return "skipped";
  }

  /**
   * Marks the scenario as not applicable: the target takes no optional behaviour the scenario
   * checks (a MAY row it does not take, a task the client does not do). Unlike "not run",
   * this leaves the run complete.
   */
  notApplicable(reason: string): "skipped" {
    this.attach(reason, NOT_APPLICABLE_MEDIA_TYPE);
    return "skipped";
  }

  /**
   * Notes what the scenario saw that its rule leaves open or that sxd staged; the reports
   * keep it with the scenario, so a pass says what it rests on.
   */
  observe(text: string): void {
    this.attach(text, OBSERVED_MEDIA_TYPE);
  }
}
