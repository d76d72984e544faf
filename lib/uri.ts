/** URI helpers both sides use (RFC 3986): an absolute URI, and a base URL without its trailing slashes. */

/** An absolute URI (RFC 3986 §4.3): a scheme, then no white space. `urn:…` counts; `//host/x`, `/x` and `s1` do not. */
export function isAbsoluteUri(text: string | undefined): text is string {
  if (text === undefined || !/^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(text)) return false;
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

/** `http://h/api/` → `http://h/api`: what relative paths are appended to. */
export function withoutTrailingSlashes(url: string): string {
  return url.replace(/\/+$/, "");
}

/** An http: or https: URL, the only kinds a target can be reached at. */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}
