import assert from "node:assert/strict";
import { test } from "node:test";
import { bodyBytes, keptBody } from "./body.ts";

test("a UTF-8 body is kept as its text alone, which is its bytes", () => {
  const bytes = Buffer.from("Genève \u{1F600}", "utf8");
  const kept = keptBody(bytes);
  assert.deepEqual(kept, { body: "Genève \u{1F600}" });
  assert.deepEqual(Buffer.from(bodyBytes(kept)), bytes);
});

test("a body that is not UTF-8 keeps its bytes beside the text, which shows U+FFFD, and through JSON", () => {
  const bytes = Buffer.from("<city>Genève</city>", "latin1");
  const kept = JSON.parse(JSON.stringify(keptBody(bytes)));
  assert.equal(kept.body, "<city>Gen\uFFFDve</city>");
  assert.deepEqual(bodyBytes(kept), bytes);
  assert.deepEqual(keptBody(Buffer.alloc(0)), { body: "" });
});
