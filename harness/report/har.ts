/** The run's traffic as a HAR 1.2 file, for browser tools and HAR viewers. */
import type { ConformanceDocument } from "../evidence/conformance-document.ts";

/** HAR 1.2 of every recorded exchange, in the order they were sent. */
export function harDocument(doc: ConformanceDocument) {
  // A scenario that checks several rows is listed under each: its traffic goes in once.
  const seen = new Set<string>();
  const exchanges = doc.rows
    .flatMap((r) => r.scenarios)
    .filter((s) => !seen.has(s.location) && seen.add(s.location))
    .flatMap((s) => s.exchanges)
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  const pairs = (headers: Record<string, string | string[]>) =>
    Object.entries(headers).flatMap(([name, v]) => (Array.isArray(v) ? v : [v]).map((value) => ({ name, value })));
  return {
    log: {
      version: "1.2",
      creator: { name: "sxd", version: doc.suite.version },
      entries: exchanges.map((e) => ({
        startedDateTime: e.startedAt,
        // Why sxd sent it, or who did where sxd did not (a backend request its own server saw, --peer).
        ...(e.note === undefined ? {} : { comment: e.note }),
        time: e.durationMs,
        request: {
          method: e.method,
          url: e.url,
          httpVersion: "HTTP/1.1",
          headers: pairs(e.requestHeaders),
          queryString: [],
          cookies: [],
          headersSize: -1,
          bodySize: e.requestBody === undefined ? 0 : Buffer.byteLength(e.requestBody),
          ...(e.requestBody === undefined
            ? {}
            : { postData: { mimeType: e.requestHeaders["content-type"] ?? "", text: e.requestBody } }),
        },
        response: {
          status: e.response?.status ?? 0,
          statusText: e.response ? "" : (e.error ?? ""),
          httpVersion: "HTTP/1.1",
          headers: pairs(e.response?.headers ?? {}),
          cookies: [],
          content: {
            size: Buffer.byteLength(e.response?.body ?? ""),
            mimeType: e.response?.headers["content-type"]?.[0] ?? "",
            text: e.response?.body ?? "",
          },
          redirectURL: e.response?.headers.location?.[0] ?? "",
          headersSize: -1,
          bodySize: Buffer.byteLength(e.response?.body ?? ""),
        },
        cache: {},
        timings: { send: 0, wait: e.durationMs, receive: 0 },
      })),
    },
  };
}
