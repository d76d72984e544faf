// sxd serve's limits and digest settings as a user gives them: a bad value is one line and
// exit code 2, before anything listens. The command's code runs in this process (support/cli.ts
// sxdHere: a dozen sxd processes cost about 6 s of CPU); one case runs as a process, which
// shows the line a user sees and the exit code the shell gets.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { test } from "node:test";
import { hashA1 } from "../lib/digest-math.ts";
import { REALM } from "../reference/index.ts";
import { sxd, sxdHere, tempDir } from "./support/cli.ts";

test("bad limits and digest settings are usage errors: one line, exit code 2", async () => {
  const md5Users = `${tempDir()}/users.htdigest`;
  writeFileSync(md5Users, `alice:${REALM}:${hashA1("MD5", "alice", REALM, "pw")}\n`);
  const cases: [string[], RegExp][] = [
    [["--max-bytes", "0"], /--max-bytes must be a whole number above 0, got "0"/],
    [["--max-snapshots", "many"], /--max-snapshots must be a whole number above 0, got "many"/],
    [["--max-connections", "1.5"], /--max-connections must be a whole number above 0, got "1.5"/],
    [["--contacts-port", "70000"], /--contacts-port must be a port number, 0 to 65535, got "70000"/],
    [["--digest-algorithms", "SHA-1"], /--digest-algorithms takes a comma-separated list of SHA-256, MD5/],
    [["--digest-algorithms", "MD5,MD5"], /without repeats/],
    [["--digest-qop", "auth,conf"], /--digest-qop takes a comma-separated list of auth, auth-int/],
    [["--users", md5Users, "--digest-algorithms", "SHA-256"], /some users have no SHA-256 hash/],
    [["--export-rel", "copy-contacts"], /--export-rel must be an absolute URI/],
    [["--backend-path", "/b/{user}", "--backend-token-value", "Bearer {token}"], /needs --backend-token-header/],
    [
      ["--backend-path", "/b/{user}", "--backend-token-header", "Authorization", "--backend-token-value", "Bearer"],
      /--backend-token-value must hold \{token\} once/,
    ],
    [["--backend-token-value", "Bearer {token}"], /need --backend-path/],
  ];
  const serve = (args: string[], index: number) =>
    (index === 0 ? sxd : sxdHere)(["serve", "base", "--port", "0", ...args]);
  const results = await Promise.all(cases.map(([args], index) => serve(args, index)));
  for (const [index, [args, message]] of cases.entries()) {
    const { code, stderr } = results[index];
    assert.equal(code, 2, args.join(" "));
    assert.match(stderr, message);
    assert.equal(stderr.trim().split("\n").length, 1, stderr);
  }
});
