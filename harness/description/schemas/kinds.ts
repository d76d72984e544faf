/**
 * The kinds of value a setting or a description key takes, each once: its JSON Schema, which
 * the schemas in schema/ hold under `$defs` (a flag's text is checked against the same
 * definition as a description's key), and the words a message says it must be (its `title`).
 * With the helpers the declarations of harness/description/schemas/ are written with.
 */
import Type, { type Static, type TProperties, type TSchema } from "typebox";

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

type Kinds = typeof KINDS;
type KindValue<K extends keyof Kinds> = Static<Kinds[K]>;

/** A reference to a kind, as a schema's property: the kind's value, described for the key. */
export function ref<K extends keyof Kinds>(kind: K, description?: string) {
  return Type.Unsafe<KindValue<K>>({ $ref: `#/$defs/${kind}`, ...(description ? { description } : {}) });
}

/** An optional key of a kind. */
export function optional<K extends keyof Kinds>(kind: K, description?: string) {
  return Type.Optional(ref(kind, description));
}

/** A reference to a named definition of a schema's own (`$defs`), typed as it is. */
export function refTo<T extends TSchema>(name: string, _definition: T, description?: string) {
  return Type.Unsafe<Static<T>>({ $ref: `#/$defs/${name}`, ...(description ? { description } : {}) });
}

/** An object of known keys only, where `$comment` is a note for readers. */
export function known<P extends TProperties>(properties: P, options: { description?: string } = {}) {
  return Type.Object(
    { $comment: Type.Optional(ref("comment")), ...properties },
    { additionalProperties: false, ...options },
  );
}
