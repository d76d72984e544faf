/**
 * The kinds of value a setting or a description key takes: a count, a port, a URL. Each is a
 * definition of the schemas in schema/ (declared in harness/description/schemas/kinds.ts), which checks a
 * description's key and a flag's text alike; here is only how a flag's or an environment
 * variable's text becomes a value of its kind, for that check.
 */
import type { KINDS } from "./schemas/kinds.ts";

export type KindName = keyof typeof KINDS;
export type KindValue<K extends KindName> = import("typebox").Static<(typeof KINDS)[K]>;

/** The kinds a flag or an environment variable can give as text. */
export type TextKind = "text" | "count" | "whole" | "port" | "path" | "url";

/** A flag's text as a value of its kind, for the kind's schema to check; a number's text must look like one. */
export function valueOfText(kind: TextKind, text: string): unknown {
  if (kind === "count" || kind === "whole" || kind === "port") return /^\s*$/.test(text) ? text : Number(text);
  return text;
}
