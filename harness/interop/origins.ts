/**
 * An origin as a client resolves it. A server may name its own address `localhost:PORT` where
 * sxd knows it as `127.0.0.1:PORT` (the matrix's URLs): a client goes to the same listener
 * either way, so a link to one is a link to the other.
 *
 *   sameOriginNames("http://127.0.0.1:8082/user/a") // ["http://127.0.0.1:8082/user/a", "http://localhost:8082/user/a"]
 */

/** Host names every client resolves to the IPv4 loopback a started server listens on. */
const LOOPBACK = ["127.0.0.1", "localhost"];

/** The URL under each name of its host that a client resolves to the same place; the URL alone for any other host. */
export function sameOriginNames(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [url];
  }
  if (!LOOPBACK.includes(parsed.hostname) || !url.startsWith(parsed.origin)) return [url];
  const rest = url.slice(parsed.origin.length);
  const port = parsed.port === "" ? "" : `:${parsed.port}`;
  const names = LOOPBACK.map((host) => `${parsed.protocol}//${host}${port}${rest}`);
  return [url, ...names.filter((name) => name !== url)];
}
