import assert from "node:assert/strict";
import { test } from "node:test";
import { curlCommand, describeTransportError, masked, notSent, notSentReason } from "./exchange.ts";

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

test("secret-looking header values are masked, the scheme kept; others are not", () => {
  assert.equal(masked("Authorization", "Bearer abc.def"), "Bearer •••");
  assert.equal(masked("X-Api-Key", "k-123"), "•••");
  assert.equal(masked("Cookie", "session=1"), "•••");
  assert.equal(masked("X-Auth-Token", "t"), "•••");
  assert.equal(masked("X-Tenant", "acme"), "acme");
});

test("a self-signed certificate gets a hint: --ca or --insecure", () => {
  const error = Object.assign(new Error("fetch failed"), { cause: { code: "DEPTH_ZERO_SELF_SIGNED_CERT" } });
  assert.match(describeTransportError(error, 1000), /self-signed .* --ca FILE, or --insecure$/);
});

test("a request sxd chose not to send gives its reason; a failure of the target does not", () => {
  const failure = `GET http://t/x: ${notSent("the target stopped answering: 3 transport failures in a row")}`;
  assert.equal(
    notSentReason(`before\n${failure}\nafter`),
    "the target stopped answering: 3 transport failures in a row",
  );
  assert.equal(notSentReason("GET http://t/x: no complete reply within 2000 ms"), undefined);
  assert.equal(notSentReason("expected status 204\nbut got status 200"), undefined);
  assert.equal(notSentReason(undefined), undefined);
});
