/**
 * The kinds of value a setting or a description key takes, each once: its JSON Schema (which
 * the schemas in schema/ name under `$defs`, and which checks a description at run time), the
 * words a message says it must be (the schema's `title`), and how a flag's or an environment
 * variable's text becomes that value. A flag and a description key of one kind so get the
 * same answer for the same value.
 */
import Type, { type Static, type TSchema } from "typebox";

const HEADER_NAME = "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$";

/** What a kind must be, in a message: "run.wait must be a whole number, 0 or more". */
export const KINDS = {
  text: Type.String({ minLength: 1, title: "a non-empty string" }),
  switch: Type.Boolean({ title: "true or false" }),
  count: Type.Integer({ minimum: 1, title: "a whole number above 0" }),
  whole: Type.Integer({ minimum: 0, title: "a whole number, 0 or more" }),
  port: Type.Integer({ minimum: 0, maximum: 65535, title: "a port number, 0 to 65535" }),
  path: Type.String({ pattern: "^/", title: 'a path starting with "/"' }),
  url: Type.String({ pattern: "^[hH][tT][tT][pP][sS]?://[^/?#\\s]+([/?#]\\S*)?$", title: "an http(s) URL" }),
  comment: Type.String({
    minLength: 1,
    title: "a non-empty string",
    description: "A note for readers; sxd ignores it.",
  }),
  headerMap: Type.Unsafe<Record<string, string>>({
    type: "object",
    propertyNames: { pattern: HEADER_NAME },
    additionalProperties: { type: "string", title: "a string" },
    title: "a map of header names to string values",
  }),
} as const;

export type KindName = keyof typeof KINDS;
export type KindValue<K extends KindName> = Static<(typeof KINDS)[K]>;

/** The kinds a flag or an environment variable can give as text. */
export type TextKind = "text" | "count" | "whole" | "port" | "path" | "url";

/** A flag's text as a value of its kind, for the kind's schema to check; a number's text must look like one. */
export function valueOfText(kind: TextKind, text: string): unknown {
  if (kind === "count" || kind === "whole" || kind === "port") return /^\s*$/.test(text) ? text : Number(text);
  return text;
}

/** A reference to a kind, as a schema's property: the kind's value, described for the key. */
export function ref<K extends KindName>(kind: K, description?: string) {
  return Type.Unsafe<KindValue<K>>({ $ref: `#/$defs/${kind}`, ...(description ? { description } : {}) });
}

/** A reference to a named definition of a schema's own (`$defs`), typed as it is. */
export function refTo<T extends TSchema>(name: string, _definition: T, description?: string) {
  return Type.Unsafe<Static<T>>({ $ref: `#/$defs/${name}`, ...(description ? { description } : {}) });
}
