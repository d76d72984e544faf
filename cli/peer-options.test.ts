import assert from "node:assert/strict";
import { test } from "node:test";
import { parseTestArgs } from "./options.ts";
import { peerUrl } from "./peer-options.ts";

const parse = (...argv: string[]) => parseTestArgs(argv, {});

test("--peer contacts makes sxd's server the target's contacts server, and only the export rows run without a base URL", () => {
  const parsed = parse("--peer", "contacts", "--peer-port", "9081", "--messaging-url", "http://127.0.0.1:9082");
  assert.ok(parsed.ok && !("help" in parsed));
  assert.deepEqual(parsed.value.peer, { side: "contacts", port: 9081, host: "127.0.0.1" });
  assert.equal(parsed.value.target?.contactsUrl, "http://127.0.0.1:9081");
  assert.equal(parsed.value.target?.baseUrl, "http://127.0.0.1:9082");
  assert.match(parsed.value.tags ?? "", /^@EXP-1 or .* or @EXP-10$/);
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

test("--peer contacts takes the place of a description's contactsUrl, as a flag wins over the description", () => {
  const description = JSON.stringify({ contactsUrl: "http://c.test", messagingUrl: "http://m.test" });
  const parsed = parseTestArgs(
    ["--peer", "contacts", "--peer-port", "9081", "--config", "t.json"],
    {},
    () => description,
  );
  assert.ok(parsed.ok && !("help" in parsed), parsed.ok ? "" : parsed.error);
  assert.equal(parsed.value.target?.contactsUrl, "http://127.0.0.1:9081");
  assert.equal(parsed.value.target?.messagingUrl, "http://m.test");
  // Named by a variable, the side sxd plays contradicts --peer: the message names what to leave out.
  const env = parseTestArgs(["--peer", "contacts", "--peer-port", "9081", "--messaging-url", "http://m.test"], {
    SXD_CONTACTS_URL: "http://c.test",
  });
  assert.equal(env.ok, false);
  if (!env.ok) assert.match(env.error, /leave out --contacts-url and SXD_CONTACTS_URL/);
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
    [["--peer-host", "0.0.0.0", "--base-url", "http://b"], /--peer-host is for --peer/],
    [
      ["--peer", "contacts", "--peer-port", "1", "--messaging-url", "http://m", "--peer-host", "ex ample"],
      /^--peer-host must be an IP address or a host name to listen on, got "ex ample"$/,
    ],
    [
      ["--peer", "contacts", "--peer-port", "1", "--messaging-url", "http://m", "--peer-host", "http://h"],
      /--peer-host must be/,
    ],
    // A zone cannot stand in the URL sxd presents.
    [
      ["--peer", "contacts", "--peer-port", "1", "--messaging-url", "http://m", "--peer-host", "fe80::1%eth0"],
      /--peer-host must be/,
    ],
  ] as const) {
    const parsed = parse(...argv);
    assert.equal(parsed.ok, false, argv.join(" "));
    if (!parsed.ok) assert.match(parsed.error, message);
  }
});

test("--peer-host: where sxd's server listens, and the URL it presents there", () => {
  const team = ["--peer", "contacts", "--peer-port", "9081", "--messaging-url", "http://127.0.0.1:9082"];
  for (const [host, presented] of [
    ["0.0.0.0", "http://127.0.0.1:9081"],
    ["::", "http://127.0.0.1:9081"],
    ["::1", "http://[::1]:9081"],
    ["10.0.0.7", "http://10.0.0.7:9081"],
    ["sxd.internal", "http://sxd.internal:9081"],
  ] as const) {
    const parsed = parse(...team, "--peer-host", host);
    assert.ok(parsed.ok && !("help" in parsed), host);
    assert.deepEqual(parsed.value.peer, { side: "contacts", port: 9081, host });
    assert.equal(parsed.value.target?.contactsUrl, presented, host);
    assert.equal(peerUrl(9081, host), presented);
  }
  // The environment stands in for the flag, which beats it.
  const fromEnv = parseTestArgs(team, { SXD_PEER_HOST: "0.0.0.0" });
  assert.ok(fromEnv.ok && !("help" in fromEnv));
  assert.equal(fromEnv.value.peer?.host, "0.0.0.0");
  const flagWins = parseTestArgs([...team, "--peer-host", "::"], { SXD_PEER_HOST: "0.0.0.0" });
  assert.ok(flagWins.ok && !("help" in flagWins));
  assert.equal(flagWins.value.peer?.host, "::");
});
