/**
 * The client of a fuzz generator (steps/<behaviour>/fuzz.ts): it sends as every sxd run does,
 * with the description's headers, the TLS settings, the campaign's pace and its cap on a reply.
 *
 *   const dispatcher = targetDispatcher(context.timeoutMs, context.tls);
 *   const http = fuzzClient(context, dispatcher);
 */
import { headersFor } from "../../harness/description/target.ts";
import type { FuzzContext } from "../../harness/fuzz/engine.ts";
import type { Dispatcher } from "../../harness/wire/undici.ts";
import { HttpClient } from "./http.ts";

/** A client on `dispatcher`: one pool of connections for every trial of a generator. */
export function fuzzClient(context: FuzzContext, dispatcher: Dispatcher): HttpClient {
  const { target, timeoutMs, maxBodyBytes, rate } = context;
  return new HttpClient({
    timeoutMs,
    dispatcher,
    ...(maxBodyBytes === undefined ? {} : { maxBodyBytes }),
    ...(rate === undefined ? {} : { rate }),
    extraHeaders: (url) => headersFor(target, url),
    userAgent: "sxd fuzz",
  });
}
