import assert from "node:assert/strict";
import { test } from "node:test";
import { curlCommand } from "./transcript.ts";

test("a digest request is replayed with curl --digest and a password placeholder, not the spent nonce", () => {
  const line = curlCommand({
    method: "GET",
    url: "http://h:1/protected",
    requestHeaders: {
      Authorization: 'Digest username="demo", realm="r", nonce="n1", uri="/protected", response="abc"',
      Accept: "application/xml",
    },
  });
  assert.equal(line, "curl -i 'http://h:1/protected' --digest -u 'demo:PASSWORD' -H 'Accept: application/xml'");
});

test("other requests keep their headers as they were sent", () => {
  const line = curlCommand({
    method: "PUT",
    url: "http://h:1/e/x",
    requestHeaders: { Authorization: "Bearer •••", "If-None-Match": "*" },
    requestBody: "it's",
  });
  assert.equal(
    line,
    "curl -i -X PUT 'http://h:1/e/x' -H 'Authorization: Bearer •••' -H 'If-None-Match: *' --data-binary 'it'\\''s'",
  );
});
