/**
 * The per-scenario world: the target description, an HTTP client that records every
 * exchange, and the clean-ups that run after the scenario whatever its outcome.
 */
import type { Answered } from "../../harness/exchange.ts";
import { NOT_APPLICABLE_MEDIA_TYPE, NOT_RUN_MEDIA_TYPE, OBSERVED_MEDIA_TYPE } from "../../harness/outcomes.ts";
import type { RunLimits } from "../../harness/run-limits.ts";
import type { TargetDescription } from "../../harness/target.ts";
import type { WorldParameters } from "../../harness/world-parameters.ts";
import { AfterAll, Before, type IWorldOptions, setWorldConstructor, World } from "./cucumber.ts";
import type { HttpClient } from "./http.ts";
import { closeConnections, suiteClient } from "./suite-client.ts";

export class SxdWorld extends World<WorldParameters> {
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
   * Marks the scenario as not run and says why: the row applies to the target, but sxd
   * cannot check it here (a URL is missing, an outage cannot be staged). Return its value
   * from the step. A MUST row left not run makes the run incomplete.
   */
  notRun(reason: string): "skipped" {
    this.attach(reason, NOT_RUN_MEDIA_TYPE);
    return "skipped";
  }

  /**
   * Marks the scenario as not applicable to this target: it takes no optional behaviour the
   * scenario checks (a MAY row it does not take, an algorithm or qop it does not offer).
   * Unlike "not run", this leaves the run complete.
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
