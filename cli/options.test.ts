import assert from "node:assert/strict";
import { test } from "node:test";
import { RUN_SETTINGS } from "../harness/description/settings.ts";
import { parseTestArgs } from "./options.ts";

const files: Record<string, string> = { "t.json": '{"baseUrl":"http://from-file:1","snapshots":{"collection":"/c/"}}' };
const read = (path: string) => {
  const text = files[path];
  if (text === undefined) throw Object.assign(new Error("missing"), { code: "ENOENT" });
  return text;
};

test("flags beat the environment, which beats the description file", () => {
  const env = { SXD_BASE_URL: "http://from-env:2", SXD_CONFIG: "t.json" };
  const fromEnv = parseTestArgs([], env, read);
  assert.ok(fromEnv.ok && "value" in fromEnv);
  assert.equal(fromEnv.value.target?.baseUrl, "http://from-env:2");
  assert.equal(fromEnv.value.target?.snapshots.collection, "/c/");
  const fromFlag = parseTestArgs(["--base-url", "http://from-flag:3"], env, read);
  assert.ok(fromFlag.ok && "value" in fromFlag);
  assert.equal(fromFlag.value.target?.baseUrl, "http://from-flag:3");
});

test("without any URL the target is left to the bundled reference", () => {
  const parsed = parseTestArgs(["--strict", "--timeout", "500"], {}, read);
  assert.ok(parsed.ok && "value" in parsed);
  assert.equal(parsed.value.target, undefined);
  assert.equal(parsed.value.strict, true);
  assert.equal(parsed.value.timeoutMs, 500);
  assert.equal(parsed.value.reportDir, "reports");
  assert.equal(parsed.value.maxBodyBytes, 8 * 1024 * 1024);
  assert.equal(parsed.value.deadlineSeconds, 600);
});

test("the body cap and the deadline come from flag, environment or the run section", () => {
  const withRun = (path: string) => (path === "m.json" ? '{"run":{"maxBody":1024,"deadline":30}}' : read(path));
  const fromFile = parseTestArgs(["--config", "m.json"], {}, withRun);
  assert.ok(fromFile.ok && "value" in fromFile);
  assert.equal(fromFile.value.maxBodyBytes, 1024);
  assert.equal(fromFile.value.deadlineSeconds, 30);
  const fromEnv = parseTestArgs(["--config", "m.json", "--deadline", "90"], { SXD_MAX_BODY: "2048" }, withRun);
  assert.ok(fromEnv.ok && "value" in fromEnv);
  assert.equal(fromEnv.value.maxBodyBytes, 2048);
  assert.equal(fromEnv.value.deadlineSeconds, 90);
});

test("usage errors are values with a message", () => {
  const cases: Array<[string[], RegExp]> = [
    [["--bogus"], /bogus/],
    [["--base-url", "nope"], /http\(s\) URL/],
    [["--timeout", "-1"], /--timeout/],
    [["--max-body", "8MB"], /--max-body must be a whole number above 0, got "8MB"/],
    [["--deadline", "0"], /--deadline must be a whole number above 0, got "0"/],
    [["--config", "missing.json"], /cannot read the target description missing.json: no such file$/],
  ];
  for (const [argv, message] of cases) {
    const parsed = parseTestArgs(argv, {}, read);
    assert.equal(parsed.ok, false, argv.join(" "));
    if (!parsed.ok) assert.match(parsed.error, message);
  }
});

test("the description's run section sets what flags and environment leave open", () => {
  const withRun: Record<string, string> = {
    "r.json": '{"run":{"tags":"@must","strict":true,"timeout":2500,"parallel":3,"reportDir":"out"}}',
  };
  const readRun = (path: string) => withRun[path] ?? read(path);
  const fromFile = parseTestArgs(["--config", "r.json"], {}, readRun);
  assert.ok(fromFile.ok && "value" in fromFile);
  assert.equal(fromFile.value.tags, "@must");
  assert.equal(fromFile.value.strict, true);
  assert.equal(fromFile.value.timeoutMs, 2500);
  assert.equal(fromFile.value.parallel, 3);
  assert.equal(fromFile.value.reportDir, "out");
  const overridden = parseTestArgs(
    ["--config", "r.json", "--tags", "@SNAP-1"],
    { SXD_STRICT: "no", SXD_TIMEOUT: "900" },
    readRun,
  );
  assert.ok(overridden.ok && "value" in overridden);
  assert.equal(overridden.value.tags, "@SNAP-1");
  assert.equal(overridden.value.strict, false);
  assert.equal(overridden.value.timeoutMs, 900);
  const bad = parseTestArgs(["--config", "b.json"], {}, (p) => (p === "b.json" ? '{"run":{"parallel":0}}' : read(p)));
  assert.equal(bad.ok, false);
});

test("--allow-incomplete comes from the flag, the environment or the description's run section", () => {
  const value = (argv: string[], env: Record<string, string>, file = "{}") =>
    parseTestArgs(argv, env, (p) => (p === "r.json" ? file : read(p)));
  const off = value([], {});
  assert.ok(off.ok && "value" in off);
  assert.equal(off.value.allowIncomplete, false);
  const flag = value(["--allow-incomplete"], {});
  assert.ok(flag.ok && "value" in flag && flag.value.allowIncomplete);
  const fromEnv = value([], { SXD_ALLOW_INCOMPLETE: "true" });
  assert.ok(fromEnv.ok && "value" in fromEnv && fromEnv.value.allowIncomplete);
  const fromFile = value(["--config", "r.json"], {}, '{"run":{"allowIncomplete":true}}');
  assert.ok(fromFile.ok && "value" in fromFile && fromFile.value.allowIncomplete);
  const envBeatsFile = value(["--config", "r.json"], { SXD_ALLOW_INCOMPLETE: "0" }, '{"run":{"allowIncomplete":true}}');
  assert.ok(envBeatsFile.ok && "value" in envBeatsFile && !envBeatsFile.value.allowIncomplete);
  const wrongShape = value(["--config", "r.json"], {}, '{"run":{"allowIncomplete":"yes"}}');
  assert.equal(wrongShape.ok, false);
});

test("parallel is left to the run (chosen from the probe) unless a flag, variable or description sets it", () => {
  const parallelOf = (args: string[], env: Record<string, string> = {}) => {
    const parsed = parseTestArgs(args, env, read);
    assert.ok(parsed.ok && "value" in parsed);
    return parsed.value.parallel;
  };
  assert.equal(parallelOf([]), undefined);
  assert.equal(parallelOf(["--base-url", "http://127.0.0.1:8080"]), undefined);
  assert.equal(parallelOf(["--base-url", "http://server.example:8080"]), undefined);
  assert.equal(parallelOf(["--base-url", "http://server.example:8080", "--parallel", "4"]), 4);
  assert.equal(parallelOf(["--base-url", "http://server.example:8080"], { SXD_PARALLEL: "1" }), 1);
});

test("--rate and --refusal-wait come from flag, environment or run section; whole numbers above 0", () => {
  const withRun = (path: string) => (path === "r.json" ? '{"run":{"rate":5,"refusalWait":60}}' : read(path));
  const settingsOf = (argv: string[], env: Record<string, string> = {}) => {
    const parsed = parseTestArgs(argv, env, withRun);
    return parsed.ok && "value" in parsed ? parsed.value : parsed.ok ? "help" : parsed.error;
  };
  const rateOf = (argv: string[], env: Record<string, string> = {}) => {
    const settings = settingsOf(argv, env);
    return typeof settings === "string" ? settings : settings.rate;
  };
  const waitOf = (argv: string[], env: Record<string, string> = {}) => {
    const settings = settingsOf(argv, env);
    return typeof settings === "string" ? settings : settings.refusalWaitSeconds;
  };
  assert.equal(rateOf([]), undefined, "absent: the pace the target allows");
  assert.equal(rateOf(["--config", "r.json"]), 5);
  assert.equal(rateOf(["--config", "r.json"], { SXD_RATE: "7" }), 7);
  assert.equal(rateOf(["--config", "r.json", "--rate", "9"], { SXD_RATE: "7" }), 9);
  assert.match(String(rateOf(["--rate", "0.5"])), /--rate must be a whole number above 0, got "0.5"/);
  assert.equal(waitOf([]), 300);
  assert.equal(waitOf(["--config", "r.json"]), 60);
  assert.equal(waitOf(["--config", "r.json"], { SXD_REFUSAL_WAIT: "90" }), 90);
  assert.equal(waitOf(["--config", "r.json", "--refusal-wait", "120"], { SXD_REFUSAL_WAIT: "90" }), 120);
  assert.match(String(waitOf(["--refusal-wait", "0"])), /--refusal-wait must be a whole number above 0, got "0"/);
});

test("a switch in the environment takes on/off, true/false, yes/no, 1/0 and refuses the rest", () => {
  for (const [spelling, on] of [
    ["on", true],
    ["OFF", false],
    ["true", true],
    ["false", false],
    ["1", true],
    ["0", false],
    ["yes", true],
    ["No", false],
  ] as const) {
    const parsed = parseTestArgs([], { SXD_STRICT: spelling }, read);
    assert.ok(parsed.ok && "value" in parsed, spelling);
    assert.equal(parsed.value.strict, on, spelling);
  }
  const refused = parseTestArgs([], { SXD_STRICT: "maybe" }, read);
  assert.deepEqual(refused, { ok: false, error: "SXD_STRICT=maybe: say on/off, true/false, yes/no or 1/0" });
});

test("an unknown option names the nearest known one", () => {
  assert.deepEqual(parseTestArgs(["--tgas", "x"], {}, read), {
    ok: false,
    error: "unknown option --tgas; did you mean --tags?",
  });
  assert.deepEqual(parseTestArgs(["--frobnicate"], {}, read), {
    ok: false,
    error: "unknown option --frobnicate; see sxd test --help",
  });
});

test("--header goes to every server, over the description's headers; --wait is whole seconds", () => {
  files["h.json"] = JSON.stringify({
    baseUrl: "http://h:1",
    headers: { base: { "X-Api-Key": "file", "X-Tenant": "t1" }, contacts: { "X-Api-Key": "c" } },
    run: { wait: 30 },
  });
  const parsed = parseTestArgs(["--config", "h.json", "--header", "X-Api-Key:  flag "], {}, read);
  assert.ok(parsed.ok && "value" in parsed);
  assert.deepEqual(parsed.value.target?.headers?.base, { "X-Api-Key": "flag", "X-Tenant": "t1" });
  assert.deepEqual(parsed.value.target?.headers?.messaging, { "X-Api-Key": "flag" });
  assert.equal(parsed.value.waitSeconds, 30);
  assert.deepEqual(parseTestArgs(["--header", "no colon"], {}, read), {
    ok: false,
    error: `--header must be 'Name: value', got "no colon"`,
  });
  assert.deepEqual(parseTestArgs(["--wait", "soon"], {}, read), {
    ok: false,
    error: '--wait must be a whole number, 0 or more, got "soon"',
  });
});

test("a run setting as a flag and as a description key: the same answer, in the same words", () => {
  const samples = ["0", "1", "-1", "1.5", "2e3", "abc", " ", "/x", "http://x.example/"];
  let refused = 0;
  for (const setting of RUN_SETTINGS.filter((s) => s.kind !== "switch")) {
    for (const text of samples) {
      const asFlag = parseTestArgs([`--${setting.name}=${text}`], {}, read);
      const number = Number(text);
      const json =
        setting.kind === "text" || setting.kind === "url" || !Number.isFinite(number) || !text.trim() ? text : number;
      const file = JSON.stringify({ run: { [setting.key]: json } });
      const asKey = parseTestArgs(["--config", "k.json"], {}, () => file);
      const why = `--${setting.name} ${JSON.stringify(text)} and run.${setting.key}: ${file}`;
      assert.equal(asFlag.ok, asKey.ok, why);
      if (asFlag.ok || asKey.ok) continue;
      refused += 1;
      const mustBe = (error: string) => error.replace(/^.*? must be /, "").replace(/, got .*$/, "");
      assert.equal(mustBe(asFlag.error), mustBe(asKey.error), why);
      assert.match(asKey.error, new RegExp(`^k\\.json: run\\.${setting.key} must be `), why);
    }
  }
  assert.ok(refused > 20, `the samples refused ${refused} times`);
});

test("the settings no description carries come from their flags: --ca, --insecure, --verbose", () => {
  const parsed = parseTestArgs(["--ca", "ca.pem", "--insecure", "--verbose"], {}, read);
  assert.ok(parsed.ok && "value" in parsed);
  assert.deepEqual([parsed.value.caFile, parsed.value.insecure, parsed.value.verbose], ["ca.pem", true, true]);
  const none = parseTestArgs([], {}, read);
  assert.ok(none.ok && "value" in none);
  assert.deepEqual([none.value.caFile, none.value.insecure, none.value.verbose], [undefined, false, false]);
});

test("a bad value from an environment variable is named by the variable", () => {
  assert.deepEqual(parseTestArgs([], { SXD_TIMEOUT: "soon" }, read), {
    ok: false,
    error: 'SXD_TIMEOUT must be a whole number above 0, got "soon"',
  });
  assert.deepEqual(parseTestArgs(["--timeout", "soon"], { SXD_TIMEOUT: "500" }, read), {
    ok: false,
    error: '--timeout must be a whole number above 0, got "soon"',
  });
});

test("--peer takes SXD_TOKEN_KEY for sxd's server, as sxd serve does; without it, no key is set", () => {
  const args = ["--peer", "contacts", "--peer-port", "9001", "--messaging-url", "http://team:2"];
  const withKey = parseTestArgs(args, { SXD_TOKEN_KEY: "shared" }, read);
  assert.ok(withKey.ok && "value" in withKey);
  assert.equal(withKey.value.peer?.tokenKey, "shared");
  const without = parseTestArgs(args, {}, read);
  assert.ok(without.ok && "value" in without);
  assert.equal(without.value.peer?.side, "contacts");
  assert.equal(without.value.peer?.tokenKey, undefined);
});
