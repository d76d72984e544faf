/**
 * `npm run schemas`: writes the JSON Schemas of schema/ from their declarations
 * (harness/description/schemas/files.ts). harness/description/schemas/target.test.ts fails where a file says otherwise.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { SCHEMA_FILES, schemaText } from "../harness/description/schemas/files.ts";

const root = new URL("../", import.meta.url);
for (const [file, schema] of Object.entries(SCHEMA_FILES)) {
  const path = new URL(file, root);
  const text = schemaText(schema);
  if (readFileSync(path, "utf8") === text) continue;
  writeFileSync(path, text);
  process.stdout.write(`wrote ${file}\n`);
}
