/**
 * Checks a parsed JSON document, or a flag's text, against a schema declared in harness/
 * (target-schema.ts, client/description.ts), with ajv: the same schema editors read from
 * schema/. The answer is one line naming the first bad key and what it must be (the `title` of
 * its kind), as a flag and a description key of one kind share it.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import type { Result } from "../lib/result.ts";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A schema with its own address, under which its `$defs` are found. */
export interface IdentifiedSchema {
  $id: string;
}

let ajv: Ajv2020 | undefined;

/** The validator of a schema, or of one of its definitions (`#/$defs/count`). */
function validatorOf(schema: IdentifiedSchema, pointer = ""): ValidateFunction {
  ajv ??= new Ajv2020({ allErrors: false, verbose: true, strict: true });
  if (ajv.getSchema(schema.$id) === undefined) ajv.addSchema(schema as object);
  const validate = ajv.getSchema(`${schema.$id}${pointer}`);
  if (validate === undefined) throw new Error(`no schema at ${schema.$id}${pointer}`);
  return validate;
}

/** A document checked against its schema, without the notes for readers (`$schema`, `$comment`). */
export function checkDocument<T>(schema: IdentifiedSchema, input: unknown, where: string): Result<T> {
  const validate = validatorOf(schema);
  if (validate(input)) return { ok: true, value: withoutAnnotations(input as Json) as T };
  const errors = validate.errors ?? [];
  if (errors.some((e) => e.instancePath === "" && e.keyword === "type"))
    return { ok: false, error: `${where}: expected a JSON object` };
  return { ok: false, error: `${where}: ${problemOf(errors)}` };
}

/**
 * A flag's or a variable's value checked as its kind is (the kind's definition in `schema`):
 * undefined where it passes, else what it must be.
 */
export function kindProblem(schema: IdentifiedSchema, kind: string, value: unknown): string | undefined {
  const validate = validatorOf(schema, `#/$defs/${kind}`);
  if (validate(value)) return undefined;
  return mustBe(validate.schema as { title?: string });
}

/** What the first error says, naming the key: the last ajv reports is the outermost that failed. */
function problemOf(errors: ErrorObject[]): string {
  const last = errors.at(-1) as ErrorObject;
  const error = last.keyword === "anyOf" ? (insideTheMatchingBranch(errors, last) ?? last) : last;
  const key = keyOf(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "additionalProperties": {
      const properties = (error.parentSchema as { properties?: object } | undefined)?.properties;
      if (properties === undefined) break;
      const names = Object.keys(properties).filter((name) => !name.startsWith("$"));
      return `unknown key "${join(key, String(params.additionalProperty))}" (known: ${names.join(", ")})`;
    }
    case "required":
      return `${join(key, String(params.missingProperty))} is required`;
    case "dependentRequired":
      return `${join(key, String(params.property))} needs ${join(key, String(params.missingProperty))}`;
    case "minItems":
      return `${key} must be a non-empty list`;
    case "type":
      if (params.type === "object") return `${key || "the description"} must be an object`;
      if (params.type === "array") return `${key} must be a non-empty list`;
  }
  const title = mustBe(error.parentSchema as { title?: string } | undefined);
  return `${key} must be ${title}, got ${JSON.stringify(error.data)}`;
}

/**
 * Of the alternatives a value matched none of, the one of its own shape (an object where one
 * alternative is an object): what is wrong inside it. Undefined where the value matched no
 * alternative's shape, and the alternatives' common title says it best.
 */
function insideTheMatchingBranch(errors: ErrorObject[], anyOf: ErrorObject): ErrorObject | undefined {
  // Stopping at the first failure, ajv reports only the alternatives' errors before the anyOf.
  const branches = errors.filter(
    (e) => e !== anyOf && isWithin(e.instancePath, anyOf.instancePath) && !SHAPE_MISMATCH.has(e.keyword),
  );
  return branches.find(
    (e) => e.instancePath !== anyOf.instancePath || STRUCTURE.has(e.keyword) || e.keyword === "anyOf",
  );
}

function isWithin(pointer: string, outer: string): boolean {
  return pointer === outer || pointer.startsWith(`${outer}/`);
}

const SHAPE_MISMATCH = new Set(["type", "const", "enum"]);
const STRUCTURE = new Set(["additionalProperties", "required", "dependentRequired"]);

function mustBe(schema: { title?: string } | undefined): string {
  return schema?.title ?? "as the schema says";
}

/** `/snapshots/resources/0/path` as `snapshots.resources[0].path`. */
function keyOf(pointer: string): string {
  return pointer
    .split("/")
    .slice(1)
    .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce((key, part) => (/^\d+$/.test(part) ? `${key}[${part}]` : join(key, part)), "");
}

function join(key: string, name: string): string {
  return key ? `${key}.${name}` : name;
}

function withoutAnnotations(value: Json): Json {
  if (Array.isArray(value)) return value.map(withoutAnnotations);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== "$comment" && key !== "$schema")
      .map(([key, child]) => [key, withoutAnnotations(child)]),
  );
}
