/**
 * A shell's glob, one path segment at a time, for the arguments a shell left as they were
 * (quoted, or handed on by a CI that does not expand them): `*` any run of characters, `?` one
 * character, `[abc]`, `[a-z]` and `[!abc]` one of a set; neither `*` nor `?` matches a leading
 * dot, as in sh. No `**`: a shell without globstar reads it as `*`, and so does this.
 *
 *   segmentMatcher("shard-*")?.test("shard-2")   // true
 *   segmentMatcher("shards")                     // undefined: no glob in it
 */

/** Whether a path has a glob character a shell would have expanded. */
export function hasGlob(path: string): boolean {
  return /[*?[]/.test(path);
}

/** A segment's pattern as a RegExp; undefined where the segment has no glob character. */
export function segmentMatcher(segment: string): RegExp | undefined {
  if (!hasGlob(segment)) return undefined;
  let source = "";
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i] as string;
    if (c === "*") source += "[^/]*";
    else if (c === "?") source += "[^/]";
    else if (c === "[" && segment.indexOf("]", i + 2) > 0) {
      const end = segment.indexOf("]", i + 2);
      const body = segment.slice(i + 1, end);
      const negated = body.startsWith("!") || body.startsWith("^");
      const set = (negated ? body.slice(1) : body).replace(/[\\\]^]/g, "\\$&");
      source += `[${negated ? "^" : ""}${set}]`;
      i = end;
    } else source += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  // sh: a name that starts with a dot is matched only by a pattern that starts with one.
  const hidden = segment.startsWith(".") ? "" : "(?!\\.)";
  return new RegExp(`^${hidden}${source}$`);
}
