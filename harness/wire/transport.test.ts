import assert from "node:assert/strict";
import { test } from "node:test";
import { describeTransportError } from "./transport.ts";

test("a self-signed certificate gets a hint: --ca or --insecure", () => {
  const error = Object.assign(new Error("fetch failed"), { cause: { code: "DEPTH_ZERO_SELF_SIGNED_CERT" } });
  assert.match(describeTransportError(error, 1000), /self-signed .* --ca FILE, or --insecure$/);
});
