/**
 * A recorded run as the reports show it: the requests as exchanges (the same shape as a
 * server run's, so conformance.json and the HTML report read them alike), and what the client
 * itself said.
 */

import { urlOf } from "../../lib/digest-answers.ts";
import { describeRun, endOf, type TaskRun } from "../evidence/client-evidence.ts";
import type { Exchange } from "../evidence/exchange.ts";

export function runExchanges(run: TaskRun): Exchange[] {
  return run.requests.map((request) => ({
    method: request.method,
    url: urlOf(request),
    requestHeaders: Object.fromEntries(
      Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(", ") : value]),
    ),
    ...(request.body ? { requestBody: request.body } : {}),
    note: `sent by the client: ${describeRun(run)}`,
    response: {
      status: request.reply.status,
      headers: Object.fromEntries(
        Object.entries(request.reply.headers).map(([name, value]) => [name, Array.isArray(value) ? value : [value]]),
      ),
      body: request.reply.body,
    },
    startedAt: request.at,
    durationMs: 0,
  }));
}

/** What the client said: how it ended, its stdout and its stderr (each cut at 2000 characters here). */
export function clientOutput(run: TaskRun): string {
  const cut = (text: string) => (text.length > 2000 ? `${text.slice(0, 2000)}… (${text.length} characters)` : text);
  return [
    `${describeRun(run)}: ${endOf(run)}, ${run.requests.length} request(s)`,
    `stdout:\n${cut(run.stdout) || "(empty)"}`,
    `stderr:\n${cut(run.stderr) || "(empty)"}`,
  ].join("\n");
}
