/**
 * Checks a target description against its schema (harness/target-schema.ts), before anything
 * runs: the message names the first bad key and what it must be. Pure: values in, values out.
 */
import { parseJsonText } from "../lib/json-text.ts";
import type { Result } from "../lib/result.ts";
import { checkDocument, kindProblem } from "./schema-check.ts";
import { type KindValue, type TextKind, valueOfText } from "./setting-kinds.ts";
import type { TargetDescription } from "./target.ts";
import { TARGET_SCHEMA } from "./target-schema.ts";

/** Checks a parsed description; the message names the first bad key. */
export function validateDescription(input: unknown, where = "target description"): Result<Partial<TargetDescription>> {
  return checkDocument<Partial<TargetDescription>>(TARGET_SCHEMA, input, where);
}

/** Parses the text of a description file. */
export function parseDescription(text: string, where: string): Result<Partial<TargetDescription>> {
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { ok: false, error: `${where}${parsed.place}: not valid JSON (${parsed.reason})` };
  return validateDescription(parsed.value, where);
}

/**
 * A value given as text (a flag, an environment variable), checked as a description key of its
 * kind is: the same bounds, the same words. `name` is the flag's, without its dashes.
 */
export function valueFromText<K extends TextKind>(name: string, kind: K, text: string): Result<KindValue<K>> {
  const value = valueOfText(kind, text);
  const problem = kindProblem(TARGET_SCHEMA, kind, value);
  return problem === undefined
    ? { ok: true, value: value as KindValue<K> }
    : { ok: false, error: `--${name} must be ${problem}, got ${JSON.stringify(text)}` };
}

type Node = {
  properties?: Record<string, Node>;
  $ref?: string;
  anyOf?: Node[];
  items?: Node;
  const?: unknown;
};

/** Every key a description may hold, as dotted paths down to its values (`export.backend.path`); notes left out. */
export function descriptionKeys(): string[] {
  const defs = TARGET_SCHEMA.$defs as Record<string, Node>;
  const resolve = (node: Node): Node => (node.$ref ? resolve(defs[node.$ref.replace("#/$defs/", "")] as Node) : node);
  const inner = (node: Node): Node | undefined => {
    const here = resolve(node);
    if (here.properties) return here;
    if (here.items) return inner(here.items);
    // An object or false (none): its keys. Other alternatives make a value of its own (noncePolicy).
    const branches = here.anyOf ?? [];
    const objects = branches.filter((branch) => branch.const !== false);
    return objects.length === 1 && objects[0] ? inner(objects[0]) : undefined;
  };
  const walk = (node: Node, path: string): string[] => {
    const object = inner(node);
    if (object?.properties === undefined) return [path];
    return Object.entries(object.properties)
      .filter(([key]) => !key.startsWith("$"))
      .flatMap(([key, child]) => walk(child, path ? `${path}.${key}` : key));
  };
  return walk(TARGET_SCHEMA as unknown as Node, "");
}
