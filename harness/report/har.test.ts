import assert from "node:assert/strict";
import { test } from "node:test";
import type { ConformanceDocument } from "../evidence/conformance-document.ts";
import { harDocument } from "./har.ts";

test("a scenario listed under two rows puts its traffic in the HAR once", () => {
  const exchange = {
    method: "GET",
    url: "http://t/r",
    requestHeaders: {},
    startedAt: "2026-11-23T10:00:00.000Z",
    durationMs: 1,
  };
  // Each row carries its own copy, as the report's JSON does once read back.
  const scenario = () => ({ location: "features/a.feature:3", exchanges: [structuredClone(exchange)] });
  const other = { location: "features/a.feature:9", exchanges: [{ ...exchange, url: "http://t/other" }] };
  const doc = {
    suite: { version: "0" },
    rows: [{ scenarios: [scenario()] }, { scenarios: [scenario(), other] }],
  } as unknown as ConformanceDocument;
  assert.deepEqual(
    harDocument(doc).log.entries.map((e) => e.request.url),
    ["http://t/r", "http://t/other"],
  );
});
