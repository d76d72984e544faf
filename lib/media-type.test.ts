import assert from "node:assert/strict";
import { test } from "node:test";
import { mediaTypeMatches, parseMediaType } from "./media-type.ts";

test("media types compare by parts, not by spelling", () => {
  assert.ok(mediaTypeMatches('Application/XML; Charset="utf-8"', "application/xml;charset=UTF-8"));
  assert.ok(
    mediaTypeMatches(
      "application/atom+xml; type=entry; charset=UTF-8",
      "application/atom+xml;type=entry;charset=UTF-8",
    ),
  );
  assert.ok(mediaTypeMatches("application/xml;charset=UTF-8;q=1", "application/xml"));
});

test("a missing or different parameter does not match", () => {
  assert.ok(!mediaTypeMatches("application/atom+xml;charset=UTF-8", "application/atom+xml;type=entry;charset=UTF-8"));
  assert.ok(!mediaTypeMatches("application/xml;charset=ISO-8859-1", "application/xml;charset=UTF-8"));
  assert.ok(!mediaTypeMatches("text/xml;charset=UTF-8", "application/xml;charset=UTF-8"));
  assert.ok(!mediaTypeMatches(undefined, "application/xml"));
});

test("quoted parameters may hold semicolons; garbage is not a media type", () => {
  assert.equal(parseMediaType('a/b; x="1;2"')?.parameters.get("x"), "1;2");
  assert.equal(parseMediaType("nonsense"), undefined);
  assert.equal(parseMediaType("a/b; noequals"), undefined);
});
