/**
 * Media types compared by their parsed parts (RFC 9110 §8.3.1), never as strings:
 * `Application/XML; charset="utf-8"` and `application/xml;charset=UTF-8` are the same type.
 */
export interface MediaType {
  type: string;
  subtype: string;
  /** Parameter names are lower-cased; values keep their case except `charset`. */
  parameters: Map<string, string>;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export function parseMediaType(value: string | undefined): MediaType | undefined {
  if (value === undefined) return undefined;
  const [essence = "", ...rest] = splitParameters(value);
  const slash = essence.indexOf("/");
  if (slash < 1) return undefined;
  const type = essence.slice(0, slash).trim().toLowerCase();
  const subtype = essence
    .slice(slash + 1)
    .trim()
    .toLowerCase();
  if (!TOKEN.test(type) || !TOKEN.test(subtype)) return undefined;
  const parameters = new Map<string, string>();
  for (const part of rest) {
    const eq = part.indexOf("=");
    if (eq < 1) return undefined;
    const name = part.slice(0, eq).trim().toLowerCase();
    let raw = part.slice(eq + 1).trim();
    if (raw.startsWith('"') && raw.endsWith('"') && raw.length >= 2) {
      raw = raw.slice(1, -1).replace(/\\(.)/g, "$1");
    }
    parameters.set(name, name === "charset" ? raw.toLowerCase() : raw);
  }
  return { type, subtype, parameters };
}

/** Splits on semicolons that are not inside a quoted string. */
function splitParameters(value: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (quoted && c === "\\" && i + 1 < value.length) {
      current += c + value[++i];
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (c === ";" && !quoted) {
      parts.push(current.trim());
      current = "";
      continue;
    }
    current += c;
  }
  parts.push(current.trim());
  return parts.filter((p, i) => i === 0 || p !== "");
}

/**
 * True when `actual` has the essence of `expected` and every parameter `expected` names,
 * with the same value. Extra parameters in `actual` are allowed.
 */
export function mediaTypeMatches(actual: string | undefined, expected: string): boolean {
  const a = parseMediaType(actual);
  const e = parseMediaType(expected);
  if (!a || !e) return false;
  if (a.type !== e.type || a.subtype !== e.subtype) return false;
  for (const [name, value] of e.parameters) {
    if (a.parameters.get(name) !== value) return false;
  }
  return true;
}

export const ATOM_ENTRY_TYPE = "application/atom+xml;type=entry;charset=UTF-8";
export const XML_TYPE = "application/xml;charset=UTF-8";
