/**
 * The per-scenario world: the target description, an HTTP client that records every
 * exchange, and the clean-ups that run after the scenario whatever its outcome.
 */
import { type IWorldOptions, setWorldConstructor, World } from "@cucumber/cucumber";
import type { TargetDescription } from "../../cli/target.ts";
import { type Answered, HttpClient } from "./http.ts";

export interface SuiteParameters {
  target: TargetDescription;
  /** Per HTTP request. */
  timeoutMs: number;
}

export class SxdWorld extends World<SuiteParameters> {
  readonly http: HttpClient;
  readonly cleanups: Array<() => Promise<unknown>> = [];

  constructor(options: IWorldOptions<SuiteParameters>) {
    super(options);
    this.http = new HttpClient(this.parameters.timeoutMs);
  }

  get target(): TargetDescription {
    return this.parameters.target;
  }

  /** The last exchange that got a reply; a step that reads it before any request is a suite bug. */
  get reply(): Answered {
    const last = this.http.last;
    if (!last) throw new Error("no reply recorded yet in this scenario");
    return last;
  }

  /** Runs after the scenario, passed or failed, newest first. */
  onCleanup(task: () => Promise<unknown>): void {
    this.cleanups.unshift(task);
  }
}

setWorldConstructor(SxdWorld);
