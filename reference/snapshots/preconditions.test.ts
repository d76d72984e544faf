import assert from "node:assert/strict";
import { test } from "node:test";
import { evaluatePreconditions } from "./preconditions.ts";

const current = { etag: '"abc-2"', lastModified: Date.UTC(2026, 0, 1, 12, 0, 10) };
const AT_10 = "Thu, 01 Jan 2026 12:00:10 GMT";
const AT_09 = "Thu, 01 Jan 2026 12:00:09 GMT";

test("If-Unmodified-Since holds at or after the stored date and fails before it", () => {
  assert.deepEqual(evaluatePreconditions({ ifUnmodifiedSince: AT_10 }, current), {
    pass: true,
    knowsCurrent: true,
    expectsAbsent: false,
  });
  assert.deepEqual(evaluatePreconditions({ ifUnmodifiedSince: AT_09 }, current), {
    pass: false,
    failed: "If-Unmodified-Since",
  });
});

test("all three HTTP date formats are accepted", () => {
  for (const date of ["Thursday, 01-Jan-26 12:00:10 GMT", "Thu Jan  1 12:00:10 2026"]) {
    assert.equal(evaluatePreconditions({ ifUnmodifiedSince: date }, current).pass, true, date);
  }
});

test("If-Unmodified-Since is ignored when If-Match is present or the date is invalid", () => {
  assert.equal(evaluatePreconditions({ ifMatch: '"abc-2"', ifUnmodifiedSince: AT_09 }, current).pass, true);
  assert.deepEqual(evaluatePreconditions({ ifUnmodifiedSince: "yesterday" }, current), {
    pass: true,
    knowsCurrent: false,
    expectsAbsent: false,
  });
});

test("If-Match compares strongly and comes before If-Unmodified-Since", () => {
  assert.equal(evaluatePreconditions({ ifMatch: '"x", "abc-2"' }, current).pass, true);
  assert.equal(evaluatePreconditions({ ifMatch: "*" }, current).pass, true);
  assert.deepEqual(evaluatePreconditions({ ifMatch: 'W/"abc-2"', ifUnmodifiedSince: AT_10 }, current), {
    pass: false,
    failed: "If-Match",
  });
  assert.deepEqual(evaluatePreconditions({ ifMatch: "*" }, undefined), { pass: false, failed: "If-Match" });
});

test("If-None-Match: * holds only where nothing exists", () => {
  assert.deepEqual(evaluatePreconditions({ ifNoneMatch: "*" }, undefined), {
    pass: true,
    knowsCurrent: false,
    expectsAbsent: true,
  });
  assert.deepEqual(evaluatePreconditions({ ifNoneMatch: "*" }, current), { pass: false, failed: "If-None-Match" });
});

test("a fault can make a stale If-Unmodified-Since pass", () => {
  assert.equal(
    evaluatePreconditions({ ifUnmodifiedSince: AT_09 }, current, { ignoreUnmodifiedSince: true }).pass,
    true,
  );
});
