// Dev-time check that catalogue/rows.json has the IDs and levels of a ROWS.md the team
// maintains elsewhere: `node --import tsx scripts/check-catalogue.ts path/to/ROWS.md`.
// The project never reads that file at run or test time; this is for whoever updates the catalogue.
import { readFileSync } from "node:fs";
import { loadRows } from "../harness/judging/catalogue.ts";

const path = process.argv[2];
if (!path) {
  console.error("usage: check-catalogue.ts ROWS.md");
  process.exit(2);
}
const specRows = new Map<string, string>();
for (const match of readFileSync(path, "utf8").matchAll(/^\| ((?:DIG|EXP|SNAP)-\d+) \| (MUST|SHOULD|MAY)\b/gm)) {
  specRows.set(match[1], match[2].toLowerCase());
}
const ours = new Map(loadRows().map((r) => [r.id, r.level]));
const problems: string[] = [];
for (const [id, level] of specRows) {
  if (!ours.has(id)) problems.push(`${id} is missing from the catalogue`);
  else if (ours.get(id) !== level) problems.push(`${id}: catalogue says ${ours.get(id)}, ROWS.md says ${level}`);
}
for (const id of ours.keys()) if (!specRows.has(id)) problems.push(`${id} is in the catalogue but not in ROWS.md`);
console.log(problems.length === 0 ? `catalogue matches ${specRows.size} rows` : problems.join("\n"));
process.exit(problems.length === 0 ? 0 : 1);
