import assert from "node:assert/strict";
import { test } from "node:test";
import { resolveDescription } from "../description/target.ts";
import { bundledName, describedKeys, SECRET_MASK } from "./described-target.ts";

test("the described keys keep every section the run read, the password and secret-looking headers masked", () => {
  const resolved = resolveDescription([
    {
      baseUrl: "http://server.test",
      snapshots: { collection: "/entries/" },
      digest: { path: "/private", username: "ann", password: "hunter2", noncePolicy: "one-time" },
      export: { user: "alice", outage: { stop: "systemctl stop contacts", start: "systemctl start contacts" } },
      headers: { base: { "X-Api-Key": "k-123", Authorization: "Bearer abc", "X-Tenant": "acme" } },
    },
  ]);
  assert.ok(resolved.ok);
  const kept = describedKeys(resolved.value);
  assert.deepEqual(kept, {
    snapshots: { collection: "/entries/" },
    digest: { path: "/private", username: "ann", password: SECRET_MASK, noncePolicy: "one-time" },
    export: { user: "alice", outage: { stop: "systemctl stop contacts", start: "systemctl start contacts" } },
    headers: { base: { "X-Api-Key": SECRET_MASK, Authorization: `Bearer ${SECRET_MASK}`, "X-Tenant": "acme" } },
  });
  assert.ok(!JSON.stringify(kept).includes("hunter2"));
  assert.equal(resolved.value.digest.password, "hunter2", "the description itself is left as it was");
});

test("a description silent on a behaviour leaves its section out", () => {
  const resolved = resolveDescription([{ baseUrl: "http://server.test", digest: { path: "/private" } }]);
  assert.ok(resolved.ok);
  assert.deepEqual(describedKeys(resolved.value), { digest: { path: "/private" } });
});

test("the bundled reference's name says its variant and faults, in one order whatever the order given", () => {
  assert.equal(bundledName({ variant: "standard", faults: [] }), "the bundled reference");
  assert.equal(bundledName({ variant: "alternative", faults: [] }), "the bundled reference (alternative variant)");
  assert.equal(
    bundledName({ variant: "standard", faults: ["snap-b", "dig-a"] }),
    bundledName({ variant: "standard", faults: ["dig-a", "snap-b"] }),
  );
  assert.equal(
    bundledName({ variant: "alternative", faults: ["snap-b", "dig-a"] }),
    "the bundled reference (alternative variant; faults dig-a, snap-b)",
  );
});
