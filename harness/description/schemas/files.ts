/**
 * The JSON Schemas in schema/, as they are written from their declarations (`npm run schemas`;
 * harness/description/schemas/target.test.ts fails where a file says otherwise). Editors and sxd both read
 * the files: the declarations of this folder are for writing them and for the types, never
 * imported at run time (typebox is a development dependency).
 */
import { CLIENT_SCHEMA } from "./client.ts";
import { HISTORY_SCHEMA } from "./history.ts";
import { INTEROP_SCHEMA } from "./interop.ts";
import { LIMITS_SCHEMA } from "./limits.ts";
import { TARGET_SCHEMA } from "./target.ts";

export const SCHEMA_FILES: Readonly<Record<string, object>> = {
  "schema/target.schema.json": TARGET_SCHEMA,
  "schema/client.schema.json": CLIENT_SCHEMA,
  "schema/interop.schema.json": INTEROP_SCHEMA,
  "schema/limits.schema.json": LIMITS_SCHEMA,
  "schema/history.schema.json": HISTORY_SCHEMA,
};

/** What a reader looks for first comes first: the dialect, the address, the title. */
const FIRST = ["$schema", "$id", "title", "description", "type", "additionalProperties", "required"];

/** A schema file's text: two-space JSON, its head keys first, a newline at the end. */
export function schemaText(schema: object): string {
  const entries = Object.entries(schema);
  const rank = (key: string) => (FIRST.includes(key) ? FIRST.indexOf(key) : FIRST.length);
  const ordered = Object.fromEntries(entries.sort(([a], [b]) => rank(a) - rank(b)));
  return `${JSON.stringify(ordered, null, 2)}\n`;
}
