/**
 * `npm run docs:options`: writes each command's option table into docs/, between
 * `<!-- options: COMMAND -->` and `<!-- /options -->`, from the option table
 * (cli/option-table.ts). test/docs-pages.test.ts fails where docs/ says otherwise.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { withOptionTables } from "../cli/help.ts";

const docs = new URL("../docs/", import.meta.url).pathname;
for (const name of readdirSync(docs).filter((file) => file.endsWith(".md"))) {
  const file = join(docs, name);
  const text = readFileSync(file, "utf8");
  const written = withOptionTables(text);
  if (written !== text) {
    writeFileSync(file, written);
    process.stdout.write(`wrote the option tables of docs/${name}\n`);
  }
}
