/**
 * The per-scenario world: the target description, an HTTP client that records every
 * exchange, and the clean-ups that run after the scenario whatever its outcome.
 */

import type { TargetDescription } from "../../harness/description/target.ts";
import type { Answered } from "../../harness/evidence/exchange.ts";
import { WHOLE_RUN_MEDIA_TYPE } from "../../harness/judging/outcomes.ts";
import type { WorldParameters } from "../../harness/run/world-parameters.ts";
import type { RunLimits } from "../../harness/wire/run-limits.ts";
import { AfterAll, Before, type IWorldOptions, setWorldConstructor } from "./cucumber.ts";
import type { HttpClient } from "./http.ts";
import { closeConnections, suiteClient } from "./suite-client.ts";
import { VerdictWorld } from "./verdict-world.ts";

export class SxdWorld extends VerdictWorld<WorldParameters> {
  readonly http: HttpClient;
  readonly limits: RunLimits;
  readonly cleanups: Array<() => Promise<unknown>> = [];

  constructor(options: IWorldOptions<WorldParameters>) {
    super(options);
    ({ http: this.http, limits: this.limits } = suiteClient(this.parameters));
  }

  get target(): TargetDescription {
    return this.parameters.target;
  }

  private judged?: { reply: Answered; sentAfter: Answered | undefined };

  /**
   * The reply the Then steps judge: the last exchange that got a reply, or the one a step
   * named with judgeReply until the next request. A step that reads it before any request is
   * a suite bug.
   */
  get reply(): Answered {
    const last = this.http.last;
    if (this.judged && this.judged.sentAfter === last) return this.judged.reply;
    if (!last) throw new Error("no reply recorded yet in this scenario");
    return last;
  }

  /** Names the reply to judge where a check was sent after it (the same request without its flaw). */
  judgeReply(reply: Answered): void {
    this.judged = { reply, sentAfter: this.http.last };
  }

  /**
   * Judges the scenario with the whole run too: once every scenario has run, the named check of
   * a run judge reads every exchange of the run (harness/run/whole-run.ts).
   */
  judgeWithTheRun(check: string): void {
    this.attach(check, WHOLE_RUN_MEDIA_TYPE);
  }

  /** Runs after the scenario, passed or failed, newest first. */
  onCleanup(task: () => Promise<unknown>): void {
    this.cleanups.unshift(task);
  }
}

setWorldConstructor(SxdWorld);

AfterAll(closeConnections);

// Past the deadline, or once the target stopped answering, the scenarios left are not run.
Before({ name: "the run's deadline and breaker" }, function (this: SxdWorld) {
  const reason = this.limits.stopReason();
  return reason ? this.notRun(reason) : undefined;
});
