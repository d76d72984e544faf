import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hashA1 } from "../../lib/digest-math.ts";
import { DEMO_USER, demoUsers, parseHtdigest } from "./users.ts";

describe("users", () => {
  it("knows the demo user under both hashes", () => {
    const demo = demoUsers("r").get(DEMO_USER.username);
    assert.equal(demo?.MD5, hashA1("MD5", DEMO_USER.username, "r", DEMO_USER.password));
    assert.equal(demo?.["SHA-256"], hashA1("SHA-256", DEMO_USER.username, "r", DEMO_USER.password));
  });

  it("reads htdigest lines, MD5 and SHA-256, skipping blanks and comments", () => {
    const md5 = hashA1("MD5", "alice", "r", "pw");
    const sha = hashA1("SHA-256", "alice", "r", "pw");
    const parsed = parseHtdigest(`# users\nalice:r:${md5}\n\nalice:r:${sha.toUpperCase()}\n`, "r");
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.value.get("alice"), { MD5: md5, "SHA-256": sha });
  });

  it("names the line of a bad entry", () => {
    const wrongRealm = parseHtdigest(`alice:other:${"0".repeat(32)}`, "r");
    assert.deepEqual(wrongRealm, {
      ok: false,
      error: 'users file line 1: realm "other" is not this server\'s realm "r"',
    });
    const parsed = parseHtdigest("\nbob:r:xyz", "r");
    assert.equal(parsed.ok, false);
    assert.match(parsed.ok ? "" : parsed.error, /^users file line 2:/);
    assert.equal(parseHtdigest(`carol:r:${"a".repeat(40)}`, "r").ok, false);
  });
});
