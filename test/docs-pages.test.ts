// The manual in docs/ and the README that leads to it: each command's page holds its option
// table as the option table makes it (npm run docs:options), and every link between the pages
// leads to a file and a heading that exist.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { optionsMarkdown, withOptionTables } from "../cli/help.ts";
import { COMMAND_NAMES } from "../cli/option-table.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const PAGES = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];
const read = (page: string) => readFileSync(join(ROOT, page), "utf8");

test("every command has a page in docs/ with its option table, as the option table makes it", () => {
  for (const command of COMMAND_NAMES) {
    const page = `docs/${command}.md`;
    assert.ok(existsSync(join(ROOT, page)), `${page} is missing`);
    assert.ok(read(page).includes(`<!-- options: ${command} -->\n${optionsMarkdown(command)}\n`), page);
  }
  for (const page of PAGES) assert.equal(read(page), withOptionTables(read(page)), `${page}: run npm run docs:options`);
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replaceAll(" ", "-");
}

function anchorsOf(page: string): Set<string> {
  const text = read(page).replace(/```[\s\S]*?```/g, "");
  return new Set([...text.matchAll(/^#{1,6} (.*)$/gm)].map((m) => anchorOf(m[1] as string)));
}

test("every relative link in README.md and docs/ leads to a file, and to a heading there", () => {
  const broken: string[] = [];
  for (const page of PAGES) {
    const text = read(page).replace(/```[\s\S]*?```/g, "");
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target as string)) continue;
      const [path, anchor] = (target as string).split("#");
      const file = path ? join(dirname(page), path) : page;
      if (!existsSync(join(ROOT, file))) broken.push(`${page}: ${target}`);
      else if (anchor && file.endsWith(".md") && !anchorsOf(file).has(anchor)) broken.push(`${page}: ${target}`);
    }
  }
  assert.deepEqual(broken, []);
});
