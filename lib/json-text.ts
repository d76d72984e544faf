/**
 * JSON as a person writes it in a file: a byte order mark is fine, and a syntax error says
 * where, as ":line:column", besides why.
 */

export type JsonText = { ok: true; value: unknown } | { ok: false; place: string; reason: string };

export function parseJsonText(text: string): JsonText {
  // Editors on Windows may save a byte order mark; JSON.parse refuses it.
  const json = text.replace(/^\uFEFF/, "");
  try {
    return { ok: true, value: JSON.parse(json) };
  } catch (error) {
    const reason = firstLineOf(error);
    return { ok: false, place: jsonErrorPlace(json, reason), reason };
  }
}

const PLACE_SEARCH = 4096;

/**
 * ":line:column" of a JSON syntax error. node 20 names the position in most messages
 * ("… in JSON at position 43") but not all ("Unexpected token '}', … is not valid JSON");
 * then the first prefix of the text that fails for another reason than its end ends there.
 */
function jsonErrorPlace(text: string, message: string): string {
  let at = Number(/at position (\d+)/.exec(message)?.[1] ?? Number.NaN);
  // A text cut short fails only at its end; and each try parses a prefix, so a long text
  // (a HAR file of megabytes) is searched no further than its first PLACE_SEARCH characters.
  if (Number.isNaN(at) && /end of JSON input/.test(message)) at = text.length;
  for (let end = 1; Number.isNaN(at) && end <= Math.min(text.length, PLACE_SEARCH); end++) {
    if (!endsEarly(text.slice(0, end))) at = end - 1;
  }
  if (Number.isNaN(at)) return "";
  const before = text.slice(0, at);
  return `:${before.split("\n").length}:${at - before.lastIndexOf("\n")}`;
}

/** The text parses, or fails only for ending too soon. */
function endsEarly(prefix: string): boolean {
  try {
    JSON.parse(prefix);
    return true;
  } catch (error) {
    const message = (error as Error).message;
    const position = /at position (\d+)/.exec(message)?.[1];
    if (position !== undefined) return Number(position) >= prefix.length;
    return /end of JSON input|Unterminated string/.test(message);
  }
}

function firstLineOf(error: unknown): string {
  // node quotes the whole text after the reason; the place says where.
  return (String((error as Error).message).split("\n")[0] as string).replace(/, ".*$/, "");
}
