// Every command's help as a user asks for it: `sxd help X` and `sxd X --help` print the same,
// made from the option table, and every option the table gives the command is in it. Through
// the command line's code in this process (sxdHere): the launcher is the same for every command.
import assert from "node:assert/strict";
import { test } from "node:test";
import { COMMAND_NAMES, optionsOf } from "../cli/option-table.ts";
import { sxdHere } from "./support/cli.ts";

test("sxd help X and sxd X --help print the same help of X, listing every option of X", async () => {
  const runs = await Promise.all(
    COMMAND_NAMES.map(async (command) => ({
      command,
      asked: await sxdHere(["help", command]),
      flagged: await sxdHere([command, "--help"]),
    })),
  );
  const helps = new Set<string>();
  for (const { command, asked, flagged } of runs) {
    assert.equal(asked.code, 0, `sxd help ${command}: ${asked.stderr}`);
    assert.equal(flagged.code, 0, `sxd ${command} --help: ${flagged.stderr}`);
    assert.equal(flagged.stdout, asked.stdout, command);
    assert.match(asked.stdout, new RegExp(`^Usage: sxd ${command}\\b`), command);
    for (const option of optionsOf(command))
      assert.match(asked.stdout, new RegExp(`^ {2}--${option.name}\\b`, "m"), `${command} --${option.name}`);
    helps.add(asked.stdout);
  }
  assert.equal(helps.size, COMMAND_NAMES.length, "each command has a help of its own");
});

test("sxd help of a command that does not exist is a usage error naming the nearest", async () => {
  const run = await sxdHere(["help", "tset"]);
  assert.equal(run.code, 2);
  assert.equal(run.stderr, 'sxd: unknown command "tset" (did you mean sxd test?)\n');
});
