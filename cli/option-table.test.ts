import assert from "node:assert/strict";
import { test } from "node:test";
import type { TextKind } from "../harness/description/setting-kinds.ts";
import { valueFromText } from "../harness/description/target-check.ts";
import { commandHelp } from "./help.ts";
import { parseOptions } from "./option-parse.ts";
import { COMMAND_NAMES, OPTIONS, type OptionSpec, optionsOf } from "./option-table.ts";

test("no command has two options of one name, and every option belongs to a command", () => {
  for (const command of COMMAND_NAMES) {
    const names = optionsOf(command).map((option) => option.name);
    assert.deepEqual(names, [...new Set(names)], command);
  }
  for (const option of OPTIONS) assert.ok(option.commands.length > 0, option.name);
});

test("what sxd test and sxd test-client share is one entry, read from the same environment variable", () => {
  for (const name of ["report-dir", "strict", "expect-fail", "allow-incomplete"]) {
    const entries: OptionSpec[] = OPTIONS.filter((option) => option.name === name);
    assert.equal(entries.length, 1, name);
    assert.ok(entries[0]?.env, name);
  }
  const env = { SXD_REPORT_DIR: "from-env", SXD_STRICT: "yes", SXD_EXPECT_FAIL: "known.json" };
  for (const command of ["test", "test-client"] as const) {
    const parsed = parseOptions(command, [], env);
    assert.ok(parsed.ok, command);
    assert.equal(parsed.value.text("report-dir"), "from-env", command);
    assert.equal(parsed.value.switch("strict"), true, command);
    assert.equal(parsed.value.text("expect-fail"), "known.json", command);
    const flagWins = parseOptions(command, ["--report-dir", "from-flag"], env);
    assert.ok(flagWins.ok);
    assert.equal(flagWins.value.text("report-dir"), "from-flag");
  }
});

test("a switch in the environment is spelt as a switch, or refused naming the variable", () => {
  const parsed = parseOptions("test-client", [], { SXD_ALLOW_INCOMPLETE: "maybe" });
  assert.deepEqual(parsed, { ok: false, error: "SXD_ALLOW_INCOMPLETE=maybe: say on/off, true/false, yes/no or 1/0" });
  const off = parseOptions("test-client", [], { SXD_ALLOW_INCOMPLETE: "off" });
  assert.ok(off.ok);
  assert.equal(off.value.switch("allow-incomplete"), false);
});

test("each help line is the table's: the flag, its value, its help, its default and its variable", () => {
  const help = commandHelp("test");
  assert.match(help, /^ {2}--report-dir DIR +where the reports are written \(default: reports\) \[SXD_REPORT_DIR\]$/m);
  assert.match(help, /^ {2}--strict +SHOULD rows fail the run too, not only warn \[SXD_STRICT\]$/m);
  assert.doesNotMatch(commandHelp("serve"), /--report-dir/);
});

test("an unknown option names the nearest of the command's own, or its help", () => {
  const near = parseOptions("serve", ["--prot", "1"], {});
  assert.deepEqual(near, { ok: false, error: "unknown option --prot; did you mean --port?" });
  const far = parseOptions("docs", ["--frobnicate"], {});
  assert.deepEqual(far, { ok: false, error: "unknown option --frobnicate; see sxd docs --help" });
});

test("each default of a kind is of its kind, and within its bounds", () => {
  const entries: readonly OptionSpec[] = OPTIONS;
  const kinded = entries.filter(
    (option): option is OptionSpec & { kind: TextKind; default: string } =>
      option.kind !== undefined && option.default !== undefined,
  );
  assert.ok(kinded.length >= 12, `${kinded.length} options with a kind and a default`);
  for (const option of kinded) {
    const checked = valueFromText(option.name, option.kind, option.default);
    assert.ok(checked.ok, `--${option.name} ${option.default}: ${checked.ok ? "" : checked.error}`);
    if (option.most !== undefined) assert.ok(Number(checked.value) <= option.most, option.name);
  }
});
