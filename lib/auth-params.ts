/**
 * The HTTP authentication syntax of RFC 9110 §11: challenges and credentials made of an
 * auth-scheme followed by a token68 or a comma-separated list of `name=value` auth-params,
 * values being tokens or quoted strings with backslash escapes.
 *
 * A header may hold several challenges (`Digest realm="a", nonce="1", Basic realm="b"`);
 * what tells a new challenge from the next parameter is that a parameter has an "=".
 *
 *   parseChallenges('Digest realm="x", qop="auth", Basic realm="y"')
 *   // → { ok: true, value: [{ scheme: "Digest", params: Map{realm→x, qop→auth} }, { scheme: "Basic", ... }] }
 */
import type { Result } from "./result.ts";

export interface AuthItem {
  scheme: string;
  /** Names lower-cased (they are case-insensitive); values unquoted and unescaped. */
  params: Map<string, string>;
  /** The names whose value was written as a quoted-string (RFC 7616 says which must be). */
  quoted: Set<string>;
  token68?: string;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** TCHAR[c] for each ASCII code c: whether it may appear in a token (RFC 9110 §5.6.2). */
const TCHAR: readonly boolean[] = Array.from({ length: 128 }, (_, code) => TOKEN.test(String.fromCharCode(code)));
/** Read where the reader stands (sticky), not from a copy of the rest of the text. */
const TOKEN68 = /([A-Za-z0-9\-._~+/]+=*)[ \t]*(?:,|$)/y;
const SPACE = 0x20;
const TAB = 0x09;
const COMMA = 0x2c;
const EQUALS = 0x3d;
const DQUOTE = 0x22;

/** Every challenge of a WWW-Authenticate field; several fields may be given (or joined by commas). */
export function parseChallenges(fields: string | readonly string[]): Result<AuthItem[]> {
  const text = typeof fields === "string" ? fields : fields.join(", ");
  return new Reader(text).items();
}

/**
 * The one set of credentials of an Authorization field. A parameter given twice makes the
 * field unreadable, unless `lastOfRepeated` (a lenient reader's mistake, for the reference's
 * fault modes) keeps its last value.
 */
export function parseCredentials(field: string, lastOfRepeated = false): Result<AuthItem> {
  const parsed = new Reader(field, lastOfRepeated).items();
  if (!parsed.ok) return parsed;
  if (parsed.value.length !== 1)
    return { ok: false, error: `expected one set of credentials, got ${parsed.value.length}` };
  return { ok: true, value: parsed.value[0] };
}

/** A bare `#auth-param` list, as in Authentication-Info. */
export function parseParamList(field: string): Result<Map<string, string>> {
  const reader = new Reader(field);
  const params = reader.params();
  if (!params.ok) return params;
  return reader.atEnd() ? params : { ok: false, error: `unexpected text at position ${reader.position}` };
}

export interface Directive {
  name: string;
  value: string;
  /** Send as a quoted-string even where a token would do (some directives are defined quoted). */
  quoted: boolean;
}

/** Serialises directives as an auth-param list; values that are not tokens are always quoted. */
export function formatParams(directives: readonly Directive[]): string {
  return directives
    .map(({ name, value, quoted }) => `${name}=${quoted || !TOKEN.test(value) ? quote(value) : value}`)
    .join(", ");
}

export function quote(value: string): string {
  // Most values (digests, nonces, names) hold nothing to escape.
  if (!value.includes('"') && !value.includes("\\")) return `"${value}"`;
  return `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

class Reader {
  position = 0;
  /** Where the next backslash at or after some earlier position is: -1 none, -2 not looked yet. */
  private backslashAt = -2;

  constructor(
    private readonly text: string,
    private readonly lastOfRepeated = false,
  ) {}

  atEnd(): boolean {
    this.skipWhitespace();
    return this.position >= this.text.length;
  }

  items(): Result<AuthItem[]> {
    const items: AuthItem[] = [];
    this.skipSeparators();
    while (!this.atEnd()) {
      const scheme = this.token();
      if (!scheme) return this.error("an auth-scheme");
      const item: AuthItem = { scheme, params: new Map(), quoted: new Set() };
      items.push(item);
      const spaced = this.skipWhitespace();
      if (this.atItemEnd()) {
        this.skipSeparators();
        continue;
      }
      if (!spaced) return this.error("a space after the auth-scheme");
      const token68 = this.token68();
      if (token68 !== undefined) {
        item.token68 = token68;
        this.skipSeparators();
        continue;
      }
      const params = this.params(item.quoted);
      if (!params.ok) return params;
      item.params = params.value;
    }
    if (items.length === 0) return { ok: false, error: "no auth-scheme found" };
    return { ok: true, value: items };
  }

  /** Reads auth-params up to the end or up to the next auth-scheme, noting in `quoted` the names of quoted values. */
  params(quoted = new Set<string>()): Result<Map<string, string>> {
    const params = new Map<string, string>();
    this.skipSeparators();
    while (!this.atEnd()) {
      const start = this.position;
      const name = this.token();
      if (!name) return this.error("a parameter name");
      this.skipWhitespace();
      if (this.text.charCodeAt(this.position) !== EQUALS) {
        // A token without "=" starts the next challenge.
        this.position = start;
        break;
      }
      this.position++;
      this.skipWhitespace();
      const isQuoted = this.text.charCodeAt(this.position) === DQUOTE;
      const value = isQuoted ? this.quotedString() : this.token();
      if (value === undefined) return this.error(`a token or quoted string as the value of ${name}`);
      const key = name.toLowerCase();
      if (params.has(key) && !this.lastOfRepeated)
        return { ok: false, error: `parameter ${key} occurs more than once` };
      params.set(key, value);
      if (isQuoted) quoted.add(key);
      this.skipWhitespace();
      if (!this.atEnd() && this.text.charCodeAt(this.position) !== COMMA) {
        return this.error(`a comma after parameter ${name}`);
      }
      this.skipSeparators();
    }
    return { ok: true, value: params };
  }

  /** A token68 is the whole of what follows the scheme, up to a comma: `abc==`, never `name=value`. */
  private token68(): string | undefined {
    TOKEN68.lastIndex = this.position;
    const match = TOKEN68.exec(this.text);
    if (!match) return undefined;
    this.position += match[1].length;
    return match[1];
  }

  private atItemEnd(): boolean {
    return this.position >= this.text.length || this.text.charCodeAt(this.position) === COMMA;
  }

  private token(): string | undefined {
    const start = this.position;
    while (TCHAR[this.text.charCodeAt(this.position)]) this.position++;
    return this.position > start ? this.text.slice(start, this.position) : undefined;
  }

  private quotedString(): string | undefined {
    // Most values hold no backslash: then the value is the text up to the next quote.
    const close = this.text.indexOf('"', this.position + 1);
    const backslash = this.nextBackslash(this.position + 1);
    if (close > 0 && (backslash < 0 || backslash > close)) {
      const value = this.text.slice(this.position + 1, close);
      this.position = close + 1;
      return value;
    }
    let value = "";
    let at = this.position + 1;
    while (at < this.text.length) {
      const char = this.text[at];
      if (char === '"') {
        this.position = at + 1;
        return value;
      }
      if (char === "\\") {
        at++;
        if (at >= this.text.length) return undefined;
      }
      value += this.text[at];
      at++;
    }
    return undefined;
  }

  /** The first backslash at or after `from`, or -1; the search never goes over the same text twice. */
  private nextBackslash(from: number): number {
    if (this.backslashAt !== -1 && this.backslashAt < from) this.backslashAt = this.text.indexOf("\\", from);
    return this.backslashAt;
  }

  private skipWhitespace(): boolean {
    const start = this.position;
    let code = this.text.charCodeAt(this.position);
    while (code === SPACE || code === TAB) code = this.text.charCodeAt(++this.position);
    return this.position > start;
  }

  private skipSeparators(): void {
    let code = this.text.charCodeAt(this.position);
    while (code === COMMA || code === SPACE || code === TAB) code = this.text.charCodeAt(++this.position);
  }

  private error<T>(expected: string): Result<T> {
    const found =
      this.position < this.text.length ? JSON.stringify(this.text.slice(this.position, this.position + 12)) : "the end";
    return { ok: false, error: `expected ${expected} at position ${this.position}, found ${found}` };
  }
}
