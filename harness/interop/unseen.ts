/**
 * Requests sxd could not see. The client is sent to the proxy's URLs, and the proxy is its
 * http_proxy too; but a server that builds absolute links from its own configuration names its
 * real origin, and a client that ignores http_proxy (node's fetch) follows such a link straight
 * to the server, past sxd. What it sent there is not in the exchange, so a client row that
 * needs those requests cannot be judged from it. sxd cannot tell a link not followed from one
 * followed past it, so it takes the exchange as incomplete when both hold: a reply links to a
 * real origin, to a resource sxd saw no request for, and the client sent nothing through the
 * forward proxy (where it honours http_proxy, a link it followed would be in the exchange).
 * A real origin is recognised under each name a client resolves to it (origins.ts).
 */
import type { RecordedRequest } from "../../lib/recording.ts";
import { sameOriginNames } from "./origins.ts";
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
 * The origins of the cell's real servers that the client may have reached past sxd: a reply
 * links there (in what the client read, or a redirect) to a resource sxd saw no request for.
 * Empty where the exchange is whole as far as sxd can tell: the client sent something through
 * the forward proxy (it honours http_proxy), or every link to a real origin names a resource
 * the client asked sxd for anyway (the entry's self link, where the client was given the entry).
 */
export function unseenOrigins(exchange: readonly RecordedRequest[], real: ServerUrls, proxied: ServerUrls): string[] {
  if (exchange.some((request) => request.origin !== undefined)) return [];
  const proxies = new Set(Object.values(proxied).map(originOf));
  const seen = new Set(exchange.map((request) => pathOf(request.target)));
  // A real origin under each name a client resolves to it (localhost and 127.0.0.1 alike).
  const origins = [...new Set(Object.values(real).map(originOf))]
    .filter((origin): origin is string => origin !== undefined && !proxies.has(origin))
    .flatMap(sameOriginNames);
  const unseen = origins.filter((origin) =>
    exchange.some(
      (request) =>
        !request.bySxd &&
        [
          // What a client follows: the links of what it reads, and redirects.
          request.method === "GET" ? request.reply.body : "",
          text(request.reply.headers.location),
          text(request.reply.headers.link),
          text(request.reply.headers["content-location"]),
        ].some((where) => linksIn(where, origin).some((path) => !seen.has(path))),
    ),
  );
  return unseen.sort();
}

const pathOf = (target: string) => target.split(/[?#]/)[0] ?? target;

/** The paths of the absolute URLs on `origin` that the text names (not those of a longer port). */
function linksIn(text: string, origin: string): string[] {
  const escaped = origin.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return [...text.matchAll(new RegExp(`${escaped}(?![0-9A-Za-z.:-])([^\\s"'<>]*)`, "g"))].map((match) => {
    const path = (match[1] ?? "").replaceAll("&amp;", "&");
    return pathOf(path === "" ? "/" : path);
  });
}

/** Why the client's rows of a cell are not counted where it may have reached `origins` past sxd. */
export function unseenNote(origins: readonly string[], rows: readonly string[]): string {
  const which = rows.length > 0 ? `, so its rows ${rows.join(", ")} are not observed` : "";
  return `sxd did not see the client's requests to ${origins.join(" and ")}: the server's replies link there, not to sxd's proxy, and the client sent nothing through http_proxy (it does not use http_proxy)${which}`;
}
