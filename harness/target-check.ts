/**
 * Checks a target description against the keys sxd knows, before anything runs: the message
 * names the first bad key and what it must be. Pure: values in, values out.
 */
import { holdsTokenOnce } from "../lib/export-backend.ts";
import { parseJsonText } from "../lib/json-text.ts";
import type { Result } from "../lib/result.ts";
import { isHttpUrl } from "../lib/uri.ts";
import { isObject, type Json, type TargetDescription } from "./target.ts";

export type Shape =
  | "string"
  | "boolean"
  | "count"
  | "url"
  | "path"
  | "nonce-policy"
  | "export-result"
  | "lifetime"
  | "upload"
  | "outage"
  | "backend"
  | "header-map"
  | { [key: string]: Shape }
  | { listOf: { [key: string]: Shape }; required: string };

const UPLOAD_SHAPE: { [key: string]: Shape } = { method: "string", path: "path", contentType: "string" };
const OUTAGE_SHAPE: { [key: string]: Shape } = { stop: "string", start: "string", timeoutMs: "count" };
const BACKEND_SHAPE: { [key: string]: Shape } = {
  path: "path",
  method: "string",
  tokenHeader: "string",
  tokenValue: "string",
};

const SHAPE: { [key: string]: Shape } = {
  baseUrl: "url",
  run: {
    tags: "string",
    strict: "boolean",
    reportDir: "string",
    timeout: "count",
    parallel: "count",
    maxBody: "count",
    deadline: "count",
    rate: "count",
    refusalWait: "count",
    expectFail: "string",
    har: "string",
    allowIncomplete: "boolean",
    docsUrl: "url",
    wait: "count",
  },
  headers: { base: "header-map", contacts: "header-map", messaging: "header-map" },
  contactsUrl: "url",
  messagingUrl: "url",
  snapshots: { collection: "path", resources: { listOf: { path: "path", delete: "boolean" }, required: "path" } },
  digest: {
    path: "path",
    username: "string",
    password: "string",
    noncePolicy: "nonce-policy",
    nonceLifetime: "lifetime",
    cookies: "boolean",
  },
  export: {
    user: "string",
    otherUser: "string",
    rel: "string",
    upload: "upload",
    result: "export-result",
    outage: "outage",
    backend: "backend",
  },
};

/** Checks a parsed description against the known keys; the message names the first bad key. */
export function validateDescription(input: unknown, where = "target description"): Result<Partial<TargetDescription>> {
  return validateShape(input, SHAPE, where) as Result<Partial<TargetDescription>>;
}

/** Checks a parsed JSON object against a shape of known keys, annotations left out; the message names the first bad key. */
export function validateShape(input: unknown, shape: { [key: string]: Shape }, where: string): Result<Json> {
  if (!isObject(input)) return { ok: false, error: `${where}: expected a JSON object` };
  const problem = check(input as Json, shape, "");
  return problem
    ? { ok: false, error: `${where}: ${problem}` }
    : { ok: true, value: withoutAnnotations(input as Json) };
}

/**
 * Keys for editors and readers, not for the suite: `"$schema"` (schema/target.schema.json)
 * at the top, and a `"$comment"` in any object, as JSON Schema allows.
 */
function annotationShape(key: string, path: string): Shape | undefined {
  return key === "$comment" || (key === "$schema" && path === "") ? "string" : undefined;
}

function withoutAnnotations(value: Json): Json {
  if (Array.isArray(value)) return value.map(withoutAnnotations);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== "$comment" && key !== "$schema")
      .map(([key, child]) => [key, withoutAnnotations(child)]),
  );
}

function check(value: Json, shape: Shape, path: string): string | undefined {
  if (typeof shape === "object" && isListShape(shape)) {
    if (!Array.isArray(value) || value.length === 0) return `${path} must be a non-empty list`;
    for (const [index, item] of value.entries()) {
      const problem = check(item, shape.listOf, `${path}[${index}]`);
      if (problem) return problem;
      if (!Object.hasOwn(item as object, shape.required)) return `${path}[${index}] needs "${shape.required}"`;
    }
    return undefined;
  }
  if (typeof shape === "object") {
    if (!isObject(value)) return `${path || "the description"} must be an object`;
    for (const [key, child] of Object.entries(value)) {
      const childShape = shape[key] ?? annotationShape(key, path);
      const childPath = path ? `${path}.${key}` : key;
      if (childShape === undefined) return `unknown key "${childPath}" (known: ${Object.keys(shape).join(", ")})`;
      const problem = check(child, childShape, childPath);
      if (problem) return problem;
    }
    return undefined;
  }
  switch (shape) {
    case "string":
      return typeof value === "string" && value !== "" ? undefined : `${path} must be a non-empty string`;
    case "boolean":
      return typeof value === "boolean" ? undefined : `${path} must be true or false`;
    case "count":
      return Number.isInteger(value) && (value as number) > 0 ? undefined : `${path} must be a whole number above 0`;
    case "path":
      return typeof value === "string" && value.startsWith("/")
        ? undefined
        : `${path} must be a path starting with "/"`;
    case "url":
      return typeof value === "string" && isHttpUrl(value)
        ? undefined
        : `${path} must be an http(s) URL, got ${JSON.stringify(value)}`;
    case "nonce-policy":
      if (value === "one-time" || value === "unlimited" || value === "nc-once") return undefined;
      if (
        isObject(value) &&
        Object.keys(value).length === 1 &&
        Number.isInteger(value.uses) &&
        (value.uses as number) > 0
      ) {
        return undefined;
      }
      return `${path} must be "one-time", "unlimited", "nc-once" or { "uses": N } with N > 0`;
    case "export-result":
      return value === "location" || value === false || (typeof value === "string" && value.startsWith("/"))
        ? undefined
        : `${path} must be "location", a path starting with "/" (with {user}), or false`;
    case "lifetime":
      return value === "unlimited" || (Number.isInteger(value) && (value as number) > 0)
        ? undefined
        : `${path} must be a whole number of seconds above 0, or "unlimited"`;
    case "upload":
      return value === false ? undefined : check(value, UPLOAD_SHAPE, path);
    case "header-map":
      return isObject(value) &&
        Object.entries(value).every(([name, v]) => /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) && typeof v === "string")
        ? undefined
        : `${path} must map header names to string values`;
    case "outage": {
      const missing = ["stop", "start"].find((key) => isObject(value) && value[key] === undefined);
      return missing ? `${path}.${missing} is required (a shell command)` : check(value, OUTAGE_SHAPE, path);
    }
    case "backend":
      if (isObject(value) && typeof value.path === "string" && !value.path.includes("{user}"))
        return `${path}.path must name the user with {user}, e.g. "/internal/export/{user}?t={token}"`;
      if (isObject(value) && value.path === undefined)
        return `${path}.path is required (where the contacts server serves the list to the messaging server)`;
      return check(value, BACKEND_SHAPE, path) ?? tokenValueProblem(value, path);
  }
}

/** A tokenValue says how a tokenHeader carries the token: it needs the header, and the token's place in it. */
function tokenValueProblem(backend: Json, path: string): string | undefined {
  if (!isObject(backend) || backend.tokenValue === undefined) return undefined;
  if (backend.tokenHeader === undefined)
    return `${path}.tokenValue needs ${path}.tokenHeader, the header it is the value of (e.g. "Authorization")`;
  return holdsTokenOnce(String(backend.tokenValue))
    ? undefined
    : `${path}.tokenValue must hold {token} once, e.g. "Bearer {token}"`;
}

function isListShape(shape: object): shape is { listOf: { [key: string]: Shape }; required: string } {
  return "listOf" in shape && "required" in shape && typeof shape.required === "string";
}

/** Parses the text of a description file. */
export function parseDescription(text: string, where: string): Result<Partial<TargetDescription>> {
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { ok: false, error: `${where}${parsed.place}: not valid JSON (${parsed.reason})` };
  return validateDescription(parsed.value, where);
}

/** Every key a description may hold, as dotted paths down to its values (`export.backend.path`). */
export function descriptionKeys(): string[] {
  const named: { [name: string]: { [key: string]: Shape } } = {
    upload: UPLOAD_SHAPE,
    outage: OUTAGE_SHAPE,
    backend: BACKEND_SHAPE,
  };
  const walk = (shape: Shape, path: string): string[] => {
    const inner = typeof shape === "string" ? named[shape] : isListShape(shape) ? shape.listOf : shape;
    if (inner === undefined) return [path];
    return Object.entries(inner).flatMap(([key, child]) => walk(child, path ? `${path}.${key}` : key));
  };
  return walk(SHAPE, "");
}
