// Every sxd command line that README.md, docs/ and each command's --help show is one sxd takes:
// its command exists, its flags are the command's own, each takes its value, and each tag
// expression selects scenarios. A reader copies these lines first; one that ends in "unknown
// option" or "no scenario matches" teaches them not to trust the rest.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { commandHelp } from "../cli/help.ts";
import { parseOptions } from "../cli/option-parse.ts";
import { COMMAND_NAMES, type CommandName, optionsOf } from "../cli/option-table.ts";
import { loadScenarios, plannedScenarios } from "../harness/judging/scenarios.ts";
import { SOURCE_ROOT } from "./support/source-root.ts";

interface Example {
  /** Where it is shown: a page, or a command's --help. */
  where: string;
  line: string;
  /** Prose or output, which may name a flag without giving it a value (`sxd test --peer`). */
  mention?: boolean;
}

const PAGES = [
  "README.md",
  ...readdirSync(join(SOURCE_ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** The lines of a Markdown page that are code: fenced blocks' lines, and each inline code span. */
function codeOf(markdown: string): Array<{ line: string; mention?: boolean }> {
  const blocks = [...markdown.matchAll(/^```([^\n]*)\n([\s\S]*?)^```/gm)].flatMap(([, language, body]) => {
    // Commands are written in sh and yaml blocks; other blocks (a layout, an output) may name a flag in passing.
    const mention = !["sh", "yaml"].includes(language as string);
    return joinContinuations((body as string).split("\n")).map((line) => ({ line, mention }));
  });
  const prose = markdown.replace(/^```[^\n]*\n[\s\S]*?^```/gm, "");
  const spans = [...prose.matchAll(/`([^`\n]+)`/g)].map((m) => ({ line: m[1] as string, mention: true }));
  return [...blocks, ...spans];
}

/** Shell lines continued with a trailing backslash, joined. */
function joinContinuations(lines: string[]): string[] {
  const joined: string[] = [];
  let pending = "";
  for (const line of lines) {
    if (line.endsWith("\\")) pending += `${line.slice(0, -1)} `;
    else {
      joined.push(pending + line);
      pending = "";
    }
  }
  return joined;
}

function examples(): Example[] {
  const fromPages = PAGES.flatMap((page) =>
    codeOf(readFileSync(join(SOURCE_ROOT, page), "utf8")).map((code) => ({ where: page, ...code })),
  );
  const fromHelp = COMMAND_NAMES.flatMap((command) =>
    commandHelp(command)
      .split("\n")
      .map((line) => ({ where: `sxd ${command} --help`, line })),
  );
  return [...fromPages, ...fromHelp];
}

/** A shell line's words, quotes taken off, up to a comment or the end of its first command. */
function words(line: string): string[] {
  const found: string[] = [];
  for (const [, single, double, bare] of line.matchAll(/'([^']*)'|"([^"]*)"|([^\s'"]+)/g)) {
    if (bare !== undefined && (bare.startsWith("#") || ["|", "||", "&&", ";", ">", "2>&1"].includes(bare))) break;
    found.push(single ?? double ?? (bare as string));
  }
  return found;
}

const isCommand = (word: string | undefined): word is CommandName => COMMAND_NAMES.includes(word as CommandName);

/**
 * The arguments of the sxd command a line runs, with its command: after `sxd COMMAND` (npx,
 * a container's entry point, `node bin/sxd.js`), or `npm run conformance --`, which is
 * `sxd test`. A usage line (`[options]`, `A|B`) shows the form, not an example: none.
 */
function invocation(line: string): { command: CommandName; args: string[] } | undefined {
  if (/\[-|\[options\]|<command>/.test(line)) return undefined;
  const all = words(line.replace(/^\s*\$\s+/, ""));
  const conformance = all.findIndex((w, i) => w === "conformance" && all[i - 1] === "run" && all[i + 1] === "--");
  if (conformance > 0) return { command: "test", args: all.slice(conformance + 2) };
  const sxd = all.findIndex((w, i) => (w === "sxd" || w.endsWith("bin/sxd.js")) && isCommand(all[i + 1]));
  if (sxd < 0) return undefined;
  return { command: all[sxd + 1] as CommandName, args: all.slice(sxd + 2) };
}

/** An ellipsis stands for more of the same: "…" and "..." are left out, as the reader would. */
const shown = (args: string[]) => args.filter((a) => a !== "…" && a !== "...");

const SCENARIOS = loadScenarios(SOURCE_ROOT);

function selectsScenarios(expression: string): boolean {
  return plannedScenarios(SCENARIOS, expression).length > 0;
}

test("every sxd command line in the README, docs/ and --help is one its command takes", () => {
  const wrong: string[] = [];
  let checked = 0;
  for (const { where, line, mention } of examples()) {
    const run = invocation(line);
    if (run === undefined) continue;
    checked++;
    const args = shown(run.args);
    // A flag named in prose, at the end of a span, stands for itself: its value is the reader's.
    if (mention && args.at(-1)?.startsWith("--")) args.push("VALUE");
    const parsed = parseOptions(run.command, args, {}, true);
    if (!parsed.ok) wrong.push(`${where}: ${line.trim()}\n  ${parsed.error}`);
  }
  assert.deepEqual(wrong, []);
  // The pages show dozens; a reading that found few has lost its way, not the pages.
  assert.ok(checked >= 30, `only ${checked} sxd command lines found`);
});

test("every tag expression the docs and --help show selects scenarios", () => {
  const tagsHelp = optionsOf("test").find((option) => option.name === "tags")?.help ?? "";
  const expressions = [
    ...[...tagsHelp.matchAll(/'([^']+)'/g)].map((m) => ({
      where: "sxd test --help, --tags",
      expression: m[1] as string,
    })),
    ...examples().flatMap(({ where, line }) => {
      const all = words(line);
      return all.flatMap((word, i) =>
        word === "--tags" && all[i + 1] !== undefined && !/^[A-Z]+$/.test(all[i + 1] as string)
          ? [{ where, expression: all[i + 1] as string }]
          : [],
      );
    }),
  ];
  assert.ok(expressions.length >= 3, `only ${expressions.length} tag expressions found`);
  const empty = expressions.filter(({ expression }) => !selectsScenarios(expression));
  assert.deepEqual(
    empty.map(({ where, expression }) => `${where}: ${expression}`),
    [],
  );
});

test("each behaviour has its tag, which takes exactly its rows' scenarios", () => {
  for (const [tag, prefix] of [
    ["@digest", "DIG-"],
    ["@export", "EXP-"],
    ["@snapshots", "SNAP-"],
  ] as const) {
    const tagged = plannedScenarios(SCENARIOS, tag).map((s) => s.location);
    const ofRows = SCENARIOS.filter((s) => s.rows.some((row) => row.startsWith(prefix))).map((s) => s.location);
    assert.ok(ofRows.length > 0, prefix);
    assert.deepEqual(tagged, ofRows, tag);
  }
});
