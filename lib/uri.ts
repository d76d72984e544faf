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

/**
 * An absolute URI as a request may carry it (RFC 3986 §2): only the characters a URI is made
 * of, and every "%" the start of an escape of two hex digits. A space, a control character, a
 * raw non-ASCII one or `%3G` is no URI, and an HTTP stack may refuse the request line with 400.
 */
export function isWellFormedUri(text: string): boolean {
  return (
    /^[A-Za-z0-9._~:/?#[\]@!$&'()*+,;=%-]*$/.test(text) && !/%(?![0-9A-Fa-f]{2})/.test(text) && isAbsoluteUri(text)
  );
}
