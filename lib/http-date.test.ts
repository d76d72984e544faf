import assert from "node:assert/strict";
import { test } from "node:test";
import { formatHttpDate, parseHttpDate } from "./http-date.ts";

const instant = Date.UTC(1994, 10, 6, 8, 49, 37);

test("all three HTTP date formats of RFC 9110 §5.6.7 are read", () => {
  assert.equal(parseHttpDate("Sun, 06 Nov 1994 08:49:37 GMT")?.getTime(), instant);
  assert.equal(parseHttpDate("Sunday, 06-Nov-94 08:49:37 GMT", new Date(Date.UTC(2026, 0, 1)))?.getTime(), instant);
  assert.equal(parseHttpDate("Sun Nov  6 08:49:37 1994")?.getTime(), instant);
});

test("what is not an HTTP date is undefined", () => {
  for (const text of [
    "yesterday",
    "2026-11-21T10:00:00Z",
    "Sun, 31 Feb 1994 08:49:37 GMT",
    "Sun, 06 Nov 1994 25:49:37 GMT",
  ]) {
    assert.equal(parseHttpDate(text), undefined, text);
  }
});

test("dates are written as IMF-fixdate and read back", () => {
  const text = formatHttpDate(new Date(instant));
  assert.equal(text, "Sun, 06 Nov 1994 08:49:37 GMT");
  assert.equal(parseHttpDate(text)?.getTime(), instant);
});
