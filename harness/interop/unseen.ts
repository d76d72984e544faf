/**
 * Requests sxd could not see. The client is sent to the proxy's URLs, and the proxy is its
 * http_proxy too; but a server that builds absolute links from its own configuration names its
 * real origin, and a client that ignores http_proxy (node's fetch) follows such a link straight
 * to the server, past sxd. What it sent there is not in the exchange, so a client row that
 * needs those requests cannot be judged from it. sxd cannot tell a link not followed from one
 * followed past it, so it takes the exchange as incomplete when both hold: a reply linked to a
 * real origin, and the client sent nothing through the forward proxy (where it honours
 * http_proxy, a link it followed would be in the exchange).
 */
import type { RecordedRequest } from "../../lib/recording.ts";
import type { ServerUrls } from "./servers.ts";

const originOf = (url: string | undefined) => {
  if (url === undefined || url === "") return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
};

const text = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join("\n") : (value ?? ""));

/**
 * The origins of the cell's real servers that its replies link to and the client may have
 * reached past sxd; empty where the exchange is whole as far as sxd can tell.
 */
export function unseenOrigins(exchange: readonly RecordedRequest[], real: ServerUrls, proxied: ServerUrls): string[] {
  const proxies = new Set(Object.values(proxied).map(originOf));
  const forwarded = exchange.some((request) => request.origin !== undefined);
  if (forwarded) return [];
  const origins = new Set(Object.values(real).map(originOf));
  const linked = [...origins].filter((origin): origin is string => {
    if (origin === undefined || proxies.has(origin)) return false;
    return exchange.some(
      (request) =>
        !request.bySxd &&
        (mentions(request.reply.body, origin) ||
          mentions(text(request.reply.headers.location), origin) ||
          mentions(text(request.reply.headers.link), origin) ||
          mentions(text(request.reply.headers["content-location"]), origin)),
    );
  });
  return linked.sort();
}

/** Whether the text names the origin as the start of a URL (not a longer port). */
function mentions(body: string, origin: string): boolean {
  let from = body.indexOf(origin);
  while (from !== -1) {
    const next = body[from + origin.length];
    if (next === undefined || !/[0-9A-Za-z.:-]/.test(next)) return true;
    from = body.indexOf(origin, from + 1);
  }
  return false;
}

/** Why the client's rows of a cell are not counted where it may have reached `origins` past sxd. */
export function unseenNote(origins: readonly string[], rows: readonly string[]): string {
  const which = rows.length > 0 ? `, so its rows ${rows.join(", ")} are not observed` : "";
  return `sxd did not see the client's requests to ${origins.join(" and ")}: the server's replies link there, not to sxd's proxy, and the client sent nothing through http_proxy (it does not use http_proxy)${which}`;
}
