/**
 * The client of a LIM case (steps/<behaviour>/limits.ts): it sends as every sxd run does (the
 * description's headers, the run's pace, nothing after the deadline), and keeps its record of
 * exchanges short, for a case sends thousands of requests and a finding needs only the last.
 *
 *   const limit = new LimitClient(context);
 *   await limit.http.send("GET", url);   …   await limit.close();
 */
import { headersFor } from "../../harness/description/target.ts";
import type { LimitContext } from "../../harness/limits/case.ts";
import { targetDispatcher } from "../../harness/wire/dispatcher.ts";
import type { Dispatcher } from "../../harness/wire/undici.ts";
import { HttpClient } from "./http.ts";

/** Past this many exchanges the record is cut to the last KEPT. */
const RECORDED = 200;
const KEPT = 20;

export class LimitClient {
  private readonly dispatcher: Dispatcher;
  private readonly client: HttpClient;

  /**
   * `maxBodyBytes`: where the case reads replies larger than a run's by design (a long list, a
   * large entry); otherwise, and where the run's is larger, the run's (--max-body).
   */
  constructor(
    private readonly context: LimitContext,
    private readonly maxBodyBytes?: number,
  ) {
    this.dispatcher = targetDispatcher(context.timeoutMs, context.tls);
    this.client = this.made(true);
  }

  /** The client, its record of exchanges kept short. */
  get http(): HttpClient {
    if (this.client.exchanges.length > RECORDED) this.client.exchanges.splice(0, this.client.exchanges.length - KEPT);
    return this.client;
  }

  /** A client the deadline does not stop, for deleting what the case made; closed by the caller. */
  unguarded(): HttpClient {
    return this.made(false);
  }

  async close(): Promise<void> {
    await this.client.close();
    await this.dispatcher.close().catch(() => undefined);
  }

  private made(guarded: boolean): HttpClient {
    const { target, timeoutMs, rate, guard } = this.context;
    return new HttpClient({
      timeoutMs,
      dispatcher: this.dispatcher,
      rate,
      ...(guarded ? { guard } : {}),
      maxBodyBytes: Math.max(this.context.maxBodyBytes, this.maxBodyBytes ?? 0),
      extraHeaders: (url) => headersFor(target, url),
      userAgent: "sxd limits",
    });
  }
}
