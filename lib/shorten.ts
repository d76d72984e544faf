/**
 * A text cut to a length a reader can take in, the cut marked by "…": an Examples cell in a
 * case name, a body in a transcript or a failure message.
 *
 *   shorten("a long cell value", 8)                      // "a long …"
 *   shorten(body, 4000, { sayLength: true })             // "<4000 characters>… (9120 characters in all)"
 */
export function shorten(text: string, limit: number, { sayLength = false } = {}): string {
  if (text.length <= limit) return text;
  // A body's reader may wonder whether the rest matters: the mark says how much there was.
  if (sayLength) return `${text.slice(0, limit)}… (${text.length} characters in all)`;
  return `${text.slice(0, limit - 1)}…`;
}
