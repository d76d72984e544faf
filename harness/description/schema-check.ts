/**
 * Checks a parsed JSON document, or a flag's text, against a schema of schema/ (written from
 * its declaration in harness/description/schemas/), with ajv: the same file editors read. The answer is one
 * line naming the first bad key and what it must be (the `title` of its kind), as a flag and a
 * description key of one kind share it.
 *
 * The build compiles the validators beforehand (precompiledSource, written by scripts/build.mjs
 * beside this module's compiled self): compiling the target schema took ajv about 120 ms, paid
 * by nearly every run, since a URL flag is checked too. Run from the TypeScript, with no such
 * file, ajv compiles them here on the first check; a run with no description and no value to
 * check loads neither.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Ajv2020, ErrorObject, Options } from "ajv/dist/2020.js";
import type { Result } from "../../lib/result.ts";
import { packageFile } from "../package.ts";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A schema of schema/ by its name: `target` is schema/target.schema.json. */
export type SchemaName = "target" | "client" | "interop";
const SCHEMA_NAMES: readonly SchemaName[] = ["target", "client", "interop"];

/** A check of a value: true where it passes, else false and its errors (ajv's `verbose` ones). */
type Validator = ((value: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** The file precompiledSource's text is written to, beside the compiled schema-check.js. */
export const PRECOMPILED_FILE = "schema-validators.cjs";
/** What both ways of compiling share. `verbose` puts the failing schema and value in each error. */
export const AJV_OPTIONS: Options = { allErrors: false, verbose: true, strict: true, validateSchema: false };

const require = createRequire(import.meta.url);
let precompiled: Record<string, Validator> | null | undefined;
let ajv: Ajv2020 | undefined;
const documents = new Map<SchemaName, { $id: string; $defs?: Record<string, { title?: string }> }>();

/** A schema file, parsed once. */
function schemaDocument(name: SchemaName) {
  let document = documents.get(name);
  if (document === undefined) {
    document = JSON.parse(readFileSync(packageFile(`schema/${name}.schema.json`), "utf8")) as { $id: string };
    documents.set(name, document);
  }
  return document;
}

/** The name a validator is exported under: `target` for the whole schema, `target_count` for its count. */
function exportName(name: SchemaName, kind?: string): string {
  return kind === undefined ? name : `${name}_${kind}`;
}

/** The validator of a schema, or of one of its definitions (`count` for `#/$defs/count`). */
function validatorOf(name: SchemaName, kind?: string): Validator {
  if (precompiled === undefined) {
    try {
      precompiled = require(`./${PRECOMPILED_FILE}`) as Record<string, Validator>;
    } catch {
      precompiled = null;
    }
  }
  const ready = precompiled?.[exportName(name, kind)];
  if (ready) return ready;
  ajv ??= compiler();
  const id = schemaDocument(name).$id;
  const validate = ajv.getSchema(kind === undefined ? id : `${id}#/$defs/${kind}`);
  if (validate === undefined) throw new Error(`no schema at ${id} for ${kind}`);
  return validate;
}

/** ajv with every schema of schema/ added; `source` keeps each validator's code for precompiledSource. */
function compiler(source = false): Ajv2020 {
  const { Ajv2020 } = require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
  // The files are held against their declarations and a validator of their own by tests.
  const compiling = new Ajv2020({ ...AJV_OPTIONS, ...(source ? { code: { source: true } } : {}) });
  for (const name of SCHEMA_NAMES) compiling.addSchema(schemaDocument(name));
  return compiling;
}

/**
 * The validators of every schema and of each of its definitions, as the text of one CommonJS
 * module (ajv's standalone code, which needs ajv's small runtime modules, not its compiler),
 * exported under exportName's names.
 */
export function precompiledSource(): string {
  const compiling = compiler(true);
  const { default: standaloneCode } =
    require("ajv/dist/standalone/index.js") as typeof import("ajv/dist/standalone/index.js");
  const refs: Record<string, string> = {};
  for (const name of SCHEMA_NAMES) {
    const { $id, $defs = {} } = schemaDocument(name);
    refs[exportName(name)] = $id;
    for (const kind of Object.keys($defs)) refs[exportName(name, kind)] = `${$id}#/$defs/${kind}`;
  }
  return standaloneCode(compiling, refs);
}

/** A document checked against its schema, without the notes for readers (`$schema`, `$comment`). */
export function checkDocument<T>(schema: SchemaName, input: unknown, where: string): Result<T> {
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
export function kindProblem(schema: SchemaName, kind: string, value: unknown): string | undefined {
  if (validatorOf(schema, kind)(value)) return undefined;
  return mustBe(schemaDocument(schema).$defs?.[kind]);
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
    case "propertyNames":
      return `${key} must be ${mustBe(error.parentSchema as { title?: string })}, got the name ${JSON.stringify(params.propertyName)}`;
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
