/**
 * Checks a target description against its schema (schema/target.schema.json, written from
 * harness/description/schemas/target.ts), before anything runs: the message names the first bad key and
 * what it must be. Values in, values out; it reads only the schema file.
 */
import { readFileSync } from "node:fs";
import { parseJsonText } from "../../lib/json-text.ts";
import type { Result } from "../../lib/result.ts";
import { packageFile } from "../package.ts";
import { checkDocument, kindProblem } from "./schema-check.ts";
import { type KindValue, type TextKind, valueOfText } from "./setting-kinds.ts";
import type { TargetDescription } from "./target.ts";

/** Checks a parsed description; the message names the first bad key. */
export function validateDescription(input: unknown, where = "target description"): Result<Partial<TargetDescription>> {
  return checkDocument<Partial<TargetDescription>>("target", input, where);
}

/** Parses the text of a description file. */
export function parseDescription(text: string, where: string): Result<Partial<TargetDescription>> {
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { ok: false, error: `${where}${parsed.place}: not valid JSON (${parsed.reason})` };
  return validateDescription(parsed.value, where);
}

/**
 * A value given as text (a flag, an environment variable), checked as a description key of its
 * kind is: the same bounds, the same words. `source` names where it came from: `--timeout`, or
 * `SXD_TIMEOUT`.
 */
export function valueFromText<K extends TextKind>(source: string, kind: K, text: string): Result<KindValue<K>> {
  const value = valueOfText(kind, text);
  const problem = kindProblem("target", kind, value);
  return problem === undefined
    ? { ok: true, value: value as KindValue<K> }
    : { ok: false, error: `${source} must be ${problem}, got ${JSON.stringify(text)}` };
}

type Node = {
  properties?: Record<string, Node>;
  $ref?: string;
  anyOf?: Node[];
  items?: Node;
  const?: unknown;
  $defs?: Record<string, Node>;
};

/** Every key a description may hold, as dotted paths down to its values (`export.backend.path`); notes left out. */
export function descriptionKeys(): string[] {
  const schema = JSON.parse(readFileSync(packageFile("schema/target.schema.json"), "utf8")) as Node;
  const defs = schema.$defs ?? {};
  const resolve = (node: Node): Node => (node.$ref ? resolve(defs[node.$ref.replace("#/$defs/", "")] as Node) : node);
  const inner = (node: Node): Node | undefined => {
    const here = resolve(node);
    if (here.properties) return here;
    if (here.items) return inner(here.items);
    // An object or false (none): its keys. Other alternatives make a value of its own (noncePolicy).
    const objects = (here.anyOf ?? []).filter((branch) => branch.const !== false);
    return objects.length === 1 && objects[0] ? inner(objects[0]) : undefined;
  };
  const walk = (node: Node, path: string): string[] => {
    const object = inner(node);
    if (object?.properties === undefined) return [path];
    return Object.entries(object.properties)
      .filter(([key]) => !key.startsWith("$"))
      .flatMap(([key, child]) => walk(child, path ? `${path}.${key}` : key));
  };
  return walk(schema, "");
}
