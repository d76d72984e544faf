/**
 * Tokens forged from what a served one shows (EXP-6). A token that guards a link must not be
 * made by anyone who has seen one: decoded, changed and encoded again, it must be refused.
 * This module takes a token as meant apart (its link's escapes decoded, lib/percent.ts; the
 * token, each of its parts between separators, each part read as base64, base64url or hex where
 * that gives text) and writes the forgeries an attacker would try first, each changed in one way.
 *
 *   forgeriesOf("other-user", "YWRh", { user: "ada", otherUser: "lin" });
 *   // [{ kind: "other-user", token: "bGlu", forOtherUser: true, what: "base64url text \"ada\" → \"lin\"" }]
 *
 * Where a token shows nothing of the kind (an opaque random or MAC value), there is no
 * forgery of that kind, and the caller says so.
 */
import { jwtSigningInput, readJwt } from "./jwt.ts";
import { rawShare } from "./percent.ts";

export type ForgeryKind =
  | "other-user"
  | "number-up"
  | "number-down"
  | "jwt-alg-none"
  | "jwt-unsigned"
  | "jwt-other-subject"
  | "jwt-later-expiry"
  | "tail-cut";

export interface Forgery {
  kind: ForgeryKind;
  token: string;
  /** What was changed, in words that hold for every token of the shape (which part, what change). */
  what: string;
  /** The same with the values (the text before and after), for the request's note. */
  detail: string;
  /** The forgery names the other user: it belongs on that user's import address. */
  forOtherUser: boolean;
}

export interface TokenUsers {
  user: string;
  otherUser?: string;
}

/** At most this many forgeries of one kind: a token with many numbers gets its first few changed. */
export const MAX_FORGERIES_PER_KIND = 4;

/** How much later a forged JWT expiry is: an hour, far beyond a clock's skew. */
const LATER_EXPIRY_SECONDS = 3600;

export function forgeriesOf(kind: ForgeryKind, token: string, users: TokenUsers): Forgery[] {
  const found = FORGERS[kind](token, users).filter((f) => f.token !== token);
  const unique = found.filter((f, i) => found.findIndex((g) => g.token === f.token) === i);
  return unique.slice(0, MAX_FORGERIES_PER_KIND);
}

/** Text a token shows: the token itself, or a part of it decoded; `put` writes changed text back into the token. */
export interface TokenView {
  text: string;
  /** How the text was read: "as written", "base64url", "base64", "hex". */
  encoding: string;
  /** The part of the token as written, where the view is of one part. */
  part: string;
  /** Which part, counted from 1 between separators. */
  partNumber: number;
  /** Whether the text is of an encoded blob (long, mixed case) whose letters and digits mean nothing as written. */
  opaque: boolean;
  put(text: string): string;
}

/** Separators between a token's parts, kept in the split at the odd indices; base64url's - and _ are none. */
const SEPARATORS = /([.~:|,])/;

export function viewsOf(token: string): TokenView[] {
  const parts = token.split(SEPARATORS);
  const views: TokenView[] = [];
  parts.forEach((part, i) => {
    if (i % 2 === 1 || part === "") return;
    const put = (text: string) => [...parts.slice(0, i), text, ...parts.slice(i + 1)].join("");
    const partNumber = i / 2 + 1;
    views.push({ text: part, encoding: "as written", part, partNumber, opaque: looksEncoded(part), put });
    for (const codec of CODECS) {
      const text = codec.decode(part);
      if (text !== undefined)
        views.push({
          text,
          encoding: codec.name,
          part,
          partNumber,
          opaque: false,
          put: (t) => put(codec.encode(t, part)),
        });
    }
  });
  return views;
}

/** A long part with letters of both cases, or over a quarter raw bytes (lib/percent.ts): bytes, not words and numbers. */
function looksEncoded(part: string): boolean {
  return rawShare(part) > 0.25 || (part.length >= 16 && /[a-z]/.test(part) && /[A-Z]/.test(part));
}

interface Codec {
  name: string;
  decode(part: string): string | undefined;
  /** The text encoded as `like` was: the same alphabet, padded where it was padded. */
  encode(text: string, like: string): string;
}

const CODECS: Codec[] = [
  {
    name: "base64url",
    decode: (part) => (/^[A-Za-z0-9_-]{3,}$/.test(part) ? textOf(part, "base64url") : undefined),
    encode: (text) => Buffer.from(text).toString("base64url"),
  },
  {
    name: "base64",
    decode: (part) =>
      /^[A-Za-z0-9+/]{2,}={0,2}$/.test(part) && /[+/=]/.test(part) ? textOf(part, "base64") : undefined,
    encode: (text, like) => {
      const encoded = Buffer.from(text).toString("base64");
      return like.endsWith("=") ? encoded : encoded.replace(/=+$/, "");
    },
  },
  {
    name: "hex",
    decode: (part) => (/^(?:[0-9a-f]{2}){2,}$|^(?:[0-9A-F]{2}){2,}$/.test(part) ? textOf(part, "hex") : undefined),
    encode: (text, like) => {
      const hex = Buffer.from(text).toString("hex");
      return /[A-F]/.test(like) ? hex.toUpperCase() : hex;
    },
  },
];

/** The bytes of `part` as text, where they are printable UTF-8 and encode back to `part` exactly. */
function textOf(part: string, encoding: "base64url" | "base64" | "hex"): string | undefined {
  const bytes = Buffer.from(part, encoding);
  const back = bytes.toString(encoding);
  if (back.replace(/=+$/, "") !== part.replace(/=+$/, "")) return undefined;
  const text = bytes.toString("utf8");
  if (text.length < 2 || !Buffer.from(text).equals(bytes)) return undefined;
  return /[\p{Cc}\p{Cs}\p{Co}\p{Cn}\uFFFD]/u.test(text) ? undefined : text;
}

/** A number a token shows: digits (a count or a time), or hex of a handful of bytes holding a digit. */
interface NumberField {
  at: number;
  text: string;
  radix: 10 | 16;
}

function numbersIn(view: TokenView): NumberField[] {
  if (view.opaque) return [];
  const fields: NumberField[] = [];
  for (const match of view.text.matchAll(/[A-Za-z0-9]+/g)) {
    const text = match[0];
    if (/^\d{1,15}$/.test(text)) fields.push({ at: match.index, text, radix: 10 });
    else if (/^(?=.*\d)(?:[0-9a-f]{4,16}|[0-9A-F]{4,16})$/.test(text))
      fields.push({ at: match.index, text, radix: 16 });
  }
  return fields;
}

/** The number one step away, written as wide and in the same case; undefined where it leaves its width. */
export function stepped(field: { text: string; radix: 10 | 16 }, step: 1 | -1): string | undefined {
  const value = BigInt(field.radix === 16 ? `0x${field.text}` : field.text) + BigInt(step);
  if (value < 0n) return undefined;
  const digits = value.toString(field.radix).padStart(field.text.length, "0");
  if (digits.length > field.text.length) return undefined;
  return /[A-F]/.test(field.text) ? digits.toUpperCase() : digits;
}

function numberForgeries(step: 1 | -1) {
  return (token: string): Forgery[] =>
    viewsOf(token).flatMap((view) =>
      numbersIn(view).flatMap((field) => {
        const next = stepped(field, step);
        if (next === undefined) return [];
        const text = `${view.text.slice(0, field.at)}${next}${view.text.slice(field.at + field.text.length)}`;
        return [
          {
            kind: step === 1 ? "number-up" : "number-down",
            token: view.put(text),
            what: `${where(view)}: a ${field.radix === 16 ? "hex " : ""}number one ${step === 1 ? "up" : "down"}`,
            detail: `${describe(view)}: ${field.text} → ${next}`,
            forOtherUser: false,
          } satisfies Forgery,
        ];
      }),
    );
}

function where(view: TokenView): string {
  return `part ${view.partNumber} ${view.encoding === "as written" ? "as written" : `read as ${view.encoding}`}`;
}

function describe(view: TokenView): string {
  return view.encoding === "as written" ? `the part "${view.part}"` : `the ${view.encoding} text "${view.text}"`;
}

/** The user's name where it stands as a word of its own, not inside a longer one. */
function nameIn(user: string): RegExp {
  return new RegExp(`(?<![A-Za-z0-9])${user.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![A-Za-z0-9])`, "g");
}

function otherUserForgeries(token: string, users: TokenUsers): Forgery[] {
  const other = users.otherUser;
  if (other === undefined || users.user === "") return [];
  return viewsOf(token)
    .filter((view) => !view.opaque && nameIn(users.user).test(view.text))
    .map((view) => ({
      kind: "other-user",
      token: view.put(view.text.replace(nameIn(users.user), other)),
      what: `${where(view)}: the user's name → the other user's`,
      detail: `${describe(view)}: "${users.user}" → "${other}"`,
      forOtherUser: true,
    }));
}

function jwtForgeries(kind: ForgeryKind, token: string, users: TokenUsers): Forgery[] {
  const jwt = readJwt(token);
  if (!jwt) return [];
  const [headerPart, payloadPart] = token.split(".");
  const kept = (payload: Record<string, unknown>, what: string, detail: string, forOtherUser = false): Forgery[] => {
    const input = jwtSigningInput(jwt.header, payload);
    const token = `${headerPart}.${input.slice(input.indexOf(".") + 1)}.${jwt.signature}`;
    return [{ kind, token, what, detail, forOtherUser }];
  };
  switch (kind) {
    case "jwt-alg-none": {
      const header = jwtSigningInput({ ...jwt.header, alg: "none" }, {}).split(".")[0];
      const what = "alg none, no signature";
      return [
        {
          kind,
          token: `${header}.${payloadPart}.`,
          what,
          detail: `alg "${jwt.header.alg}" → "none", no signature`,
          forOtherUser: false,
        },
      ];
    }
    case "jwt-unsigned": {
      const what = "the signature dropped";
      return [{ kind, token: `${headerPart}.${payloadPart}.`, what, detail: what, forOtherUser: false }];
    }
    case "jwt-other-subject": {
      const other = users.otherUser;
      const claims = Object.keys(jwt.payload).filter((name) => jwt.payload[name] === users.user);
      if (other === undefined || claims.length === 0) return [];
      const payload = { ...jwt.payload, ...Object.fromEntries(claims.map((name) => [name, other])) };
      const what = `claims ${claims.join(", ")} → the other user's name, signature kept`;
      return kept(payload, what, `claims ${claims.join(", ")} "${users.user}" → "${other}", signature kept`, true);
    }
    case "jwt-later-expiry": {
      const exp = jwt.payload.exp;
      if (typeof exp !== "number") return [];
      const later = exp + LATER_EXPIRY_SECONDS;
      return kept(
        { ...jwt.payload, exp: later },
        "exp an hour later, signature kept",
        `exp ${exp} → ${later}, signature kept`,
      );
    }
    default:
      return [];
  }
}

/** The token without its last quarter: a server that compares only what it was sent lets it in. */
function tailCut(token: string): Forgery[] {
  const chars = Array.from(token);
  if (chars.length < 2) return [];
  const cut = Math.max(1, Math.ceil(chars.length / 4));
  const detail = `the last ${cut} of ${chars.length} characters cut`;
  const kept = chars.slice(0, -cut).join("");
  return [{ kind: "tail-cut", token: kept, what: "its last quarter cut", detail, forOtherUser: false }];
}

const FORGERS: Record<ForgeryKind, (token: string, users: TokenUsers) => Forgery[]> = {
  "other-user": otherUserForgeries,
  "number-up": numberForgeries(1),
  "number-down": numberForgeries(-1),
  "jwt-alg-none": (token, users) => jwtForgeries("jwt-alg-none", token, users),
  "jwt-unsigned": (token, users) => jwtForgeries("jwt-unsigned", token, users),
  "jwt-other-subject": (token, users) => jwtForgeries("jwt-other-subject", token, users),
  "jwt-later-expiry": (token, users) => jwtForgeries("jwt-later-expiry", token, users),
  "tail-cut": tailCut,
};

/** What a token shows, in words that hold for every token of its shape, for a report that says why a forgery had nothing to change. */
export function shownBy(token: string): string {
  if (readJwt(token)) return "a JWT";
  const views = viewsOf(token);
  const shown = [
    ...views.filter((v) => v.encoding !== "as written").map((v) => `text in ${where(v)}`),
    ...views.flatMap((v) => numbersIn(v).map(() => `a number in ${where(v)}`)),
  ];
  return shown.length === 0
    ? "nothing sxd can decode (no JWT, no text in base64, base64url or hex, no number)"
    : [...new Set(shown)].join(", ");
}
