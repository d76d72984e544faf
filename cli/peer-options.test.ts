import assert from "node:assert/strict";
import { test } from "node:test";
import { parseTestArgs } from "./options.ts";

const parse = (...argv: string[]) => parseTestArgs(argv, {});

test("--peer contacts makes sxd's server the target's contacts server, and only the export rows run without a base URL", () => {
  const parsed = parse("--peer", "contacts", "--peer-port", "9081", "--messaging-url", "http://127.0.0.1:9082");
  assert.ok(parsed.ok && !("help" in parsed));
  assert.deepEqual(parsed.value.peer, { side: "contacts", port: 9081 });
  assert.equal(parsed.value.target?.contactsUrl, "http://127.0.0.1:9081");
  assert.equal(parsed.value.target?.baseUrl, "http://127.0.0.1:9082");
  assert.match(parsed.value.tags ?? "", /^@EXP-1 or .* or @EXP-9$/);
  const narrowed = parse(
    ...["--peer", "messaging", "--peer-port", "9082", "--contacts-url", "http://127.0.0.1:9081"],
    ...["--tags", "@must"],
  );
  assert.ok(narrowed.ok && !("help" in narrowed));
  assert.equal(narrowed.value.target?.messagingUrl, "http://127.0.0.1:9082");
  assert.match(narrowed.value.tags ?? "", /^\(@must\) and \(@EXP-1 or /);
  const withBase = parse(
    ...["--peer", "messaging", "--peer-port", "9082", "--contacts-url", "http://127.0.0.1:9081"],
    ...["--base-url", "http://127.0.0.1:9080"],
  );
  assert.ok(withBase.ok && !("help" in withBase));
  assert.equal(withBase.value.tags, undefined);
});

test("--peer is refused with what to give instead", () => {
  for (const [argv, message] of [
    [["--peer", "both", "--peer-port", "1"], /--peer must be contacts or messaging/],
    [["--peer", "contacts", "--messaging-url", "http://m"], /needs --peer-port N/],
    [["--peer", "contacts", "--peer-port", "70000", "--messaging-url", "http://m"], /needs --peer-port N/],
    [["--peer", "contacts", "--peer-port", "1"], /give the team's server with --messaging-url/],
    [
      ["--peer", "contacts", "--peer-port", "1", "--messaging-url", "http://m", "--contacts-url", "http://c"],
      /leave out --contacts-url/,
    ],
    [["--peer-port", "1", "--base-url", "http://b"], /--peer-port is for --peer/],
  ] as const) {
    const parsed = parse(...argv);
    assert.equal(parsed.ok, false, argv.join(" "));
    if (!parsed.ok) assert.match(parsed.error, message);
  }
});
