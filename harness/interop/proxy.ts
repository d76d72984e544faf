/**
 * The recording proxy of one cell: a listener per server URL, in front of the real server,
 * that records every request and reply between the client and it. What a digest or a link
 * depends on passes unchanged: the method, the request-target, the Host header and the body,
 * byte for byte (only the framing may change: a chunked body is sent with its length).
 *
 * Each listener is also an HTTP forward proxy (the client's http_proxy): a link a server builds
 * from its own configuration (its real port, not the proxy's) is still seen when the client
 * honours the proxy variables. It forwards only to the cell's servers; HTTPS through CONNECT is
 * not offered. Bodies are bounded, and so is each exchange's time.
 *
 * The client reaches the listeners as `localhost` (NO_PROXY), the real servers' links being on
 * 127.0.0.1: a client that honours the variables talks to the listeners directly, in origin
 * form, as it would talk to the server (through a forward proxy a client may write another
 * request-target, e.g. urllib puts the absolute URL in its digest's uri, which the server then
 * never sees). A client that ignores NO_PROXY and asks a listener for its own URL in absolute
 * form is passed on as if it had asked directly.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { request as httpsRequest } from "node:https";
import type { Socket } from "node:net";
import { keptBody } from "../../lib/body.ts";
import type { Fields, RecordedRequest } from "../../lib/recording.ts";
import { endableReplyTimeLimit } from "../wire/transport.ts";
import type { ServerUrls } from "./servers.ts";

type ServerName = RecordedRequest["server"];

export interface ProxyLimits {
  /** Milliseconds an exchange with the server may take. */
  timeoutMs: number;
  /** Bytes of a request or reply body passed at most. */
  maxBodyBytes: number;
}

export interface RecordingProxy {
  /** Where the client is sent instead of each server, the server's path kept. */
  urls: ServerUrls;
  /** The forward proxy's URL, for http_proxy. */
  proxyUrl: string;
  /** The hosts the client reaches directly, for no_proxy: the listeners' own. */
  noProxy: string;
  /** What passed since the last take. */
  take(): RecordedRequest[];
  close(): Promise<void>;
}

/** Headers of one connection, which a proxy does not pass on (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

export async function startRecordingProxy(servers: ServerUrls, limits: ProxyLimits): Promise<RecordingProxy> {
  let recorded: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const names = (Object.keys(servers) as ServerName[]).filter((name) => servers[name] !== undefined);
  /** Each listener's origin, as the client may name it in absolute form, and the server behind it. */
  const own = new Map<string, ServerName>();
  const listeners = await Promise.all(
    names.map(async (name) => {
      const listener = createServer((req, res) => {
        passOn(req, res, name, { servers, own }, limits).then(
          (exchange) => recorded.push(exchange),
          () => res.destroy(),
        );
      });
      listener.on("connection", (socket: Socket) => {
        sockets.add(socket);
        socket.on("close", () => sockets.delete(socket));
      });
      listener.on("clientError", (_error, socket) => socket.destroy());
      await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
      const address = listener.address();
      const port = typeof address === "object" && address ? address.port : 0;
      for (const host of [LISTENER_HOST, "127.0.0.1"]) own.set(`http://${host}:${port}`, name);
      return {
        name,
        listener,
        url: `http://${LISTENER_HOST}:${port}${new URL(servers[name] as string).pathname.replace(/\/$/, "")}`,
      };
    }),
  );
  const urls = Object.fromEntries(listeners.map(({ name, url }) => [name, url])) as unknown as ServerUrls;
  return {
    urls,
    proxyUrl: new URL(urls.base).origin,
    noProxy: LISTENER_HOST,
    take() {
      const taken = recorded;
      recorded = [];
      return taken;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all(listeners.map(({ listener }) => new Promise((resolve) => listener.close(resolve))));
    },
  };
}

/** The name the client reaches the listeners by, unlike the 127.0.0.1 of a started server's links. */
const LISTENER_HOST = "localhost";

/** Which of the cell's servers an absolute URL is on: the longest matching server URL. */
function serverOf(url: URL, servers: ServerUrls): ServerName | undefined {
  const href = url.href;
  const matching = (Object.entries(servers) as [ServerName, string | undefined][]).filter(
    ([, at]) =>
      at !== undefined &&
      (href === at || href.startsWith(at.endsWith("/") ? at : `${at}/`) || url.origin === new URL(at).origin),
  );
  matching.sort(([, a], [, b]) => (b as string).length - (a as string).length);
  return matching[0]?.[0];
}

async function passOn(
  req: IncomingMessage,
  res: ServerResponse,
  listenerName: ServerName,
  { servers, own }: { servers: ServerUrls; own: ReadonlyMap<string, ServerName> },
  limits: ProxyLimits,
): Promise<RecordedRequest> {
  const at = new Date().toISOString();
  const raw = req.url ?? "/";
  const absolute = /^https?:\/\//i.test(raw) ? new URL(raw) : undefined;
  const server = absolute ? (own.get(absolute.origin) ?? serverOf(absolute, servers)) : listenerName;
  const target = absolute ? `${absolute.pathname}${absolute.search}` : raw;
  const body = await readBounded(req, limits.maxBodyBytes, "drain");
  const base = {
    server: server ?? listenerName,
    method: req.method ?? "GET",
    target,
    headers: req.headers as Fields,
    body: body.ok ? body.bytes.toString("utf8") : "",
    at,
    ...(absolute ? { origin: absolute.origin } : {}),
  };
  const answer = (status: number, text: string): RecordedRequest => {
    const reply = `sxd (interop proxy): ${text}\n`;
    // A request whose body was cut short leaves the connection in no state for another.
    const close = body.ok ? {} : { connection: "close" };
    if (!res.headersSent) res.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...close });
    res.end(reply);
    return { ...base, reply: { status, headers: { "content-type": "text/plain; charset=utf-8" }, body: reply } };
  };
  if (!body.ok) return answer(413, `the request body is over ${limits.maxBodyBytes} bytes`);
  if (server === undefined)
    return answer(502, `${absolute?.origin} is none of this cell's servers: sxd forwards only to them`);
  const origin = new URL(servers[server] as string);
  const headers = forwardedHeaders(req.rawHeaders, body.bytes.length, origin.host);
  try {
    const reply = await exchange(origin, req.method ?? "GET", target, headers, body.bytes, limits);
    const sent = repliedHeaders(
      reply.rawHeaders,
      reply.body.length,
      req.method === "HEAD" || [204, 304].includes(reply.status),
    );
    res.writeHead(reply.status, reply.statusMessage, sent);
    res.end(reply.body);
    return { ...base, reply: { status: reply.status, headers: reply.headers, ...keptBody(reply.body) } };
  } catch (error) {
    return answer(502, `no reply from ${origin.origin}: ${(error as Error).message}`);
  }
}

/** The request's headers as sent, in order, less those of the connection; a chunked body goes with its length. */
function forwardedHeaders(rawHeaders: readonly string[], length: number, host: string): string[] {
  const out: string[] = [];
  let chunked = false;
  let hasHost = false;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string;
    const lower = name.toLowerCase();
    if (lower === "transfer-encoding") chunked = true;
    if (lower === "host") hasHost = true;
    if (HOP_BY_HOP.has(lower)) continue;
    out.push(name, rawHeaders[i + 1] as string);
  }
  if (chunked) out.push("Content-Length", String(length));
  if (!hasHost) out.push("Host", host);
  return out;
}

function repliedHeaders(rawHeaders: readonly string[], length: number, bodiless: boolean): string[] {
  const out: string[] = [];
  let hasLength = false;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const lower = (rawHeaders[i] as string).toLowerCase();
    if (HOP_BY_HOP.has(lower)) continue;
    if (lower === "content-length") hasLength = true;
    out.push(rawHeaders[i] as string, rawHeaders[i + 1] as string);
  }
  if (!hasLength && !bodiless) out.push("Content-Length", String(length));
  return out;
}

interface Reply {
  status: number;
  statusMessage: string;
  rawHeaders: string[];
  headers: Fields;
  body: Buffer;
}

function exchange(
  origin: URL,
  method: string,
  target: string,
  headers: string[],
  body: Buffer,
  limits: ProxyLimits,
): Promise<Reply> {
  const send = origin.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = send({
      protocol: origin.protocol,
      hostname: origin.hostname,
      port: origin.port,
      method,
      path: target,
      headers: headers as unknown as Record<string, string>,
      setHost: false,
      agent: false,
    });
    // A reply that has arrived within the limit counts, though this process was held up past it.
    const limit = endableReplyTimeLimit(limits.timeoutMs);
    const passed = () => outgoing.destroy(new Error(`no whole reply within ${limits.timeoutMs} ms`));
    limit.signal.addEventListener("abort", passed);
    // Ended, the limit never aborts: its listener goes with it.
    const failed = (error: unknown) => {
      limit.end();
      reject(error);
    };
    outgoing.on("error", failed);
    outgoing.on("response", (incoming) => {
      readBounded(incoming, limits.maxBodyBytes).then((read) => {
        limit.end();
        if (!read.ok) return reject(new Error(`the reply body is over ${limits.maxBodyBytes} bytes`));
        resolve({
          status: incoming.statusCode ?? 502,
          statusMessage: incoming.statusMessage ?? "",
          rawHeaders: incoming.rawHeaders,
          headers: incoming.headers as Fields,
          body: read.bytes,
        });
      }, failed);
    });
    outgoing.end(body.length > 0 ? body : undefined);
  });
}

type Read = { ok: true; bytes: Buffer } | { ok: false };

/**
 * The body, or that it is over the limit: then what is kept goes, and a reply is closed at
 * once; a request's rest is read and dropped, so that the client still gets the proxy's answer.
 */
function readBounded(stream: IncomingMessage, limit: number, over: "close" | "drain" = "close"): Promise<Read> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (read: Read) => {
      settled = true;
      resolve(read);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      chunks.length = 0;
      stream.off("data", onData);
      settle({ ok: false });
      if (over === "close") stream.destroy();
      else stream.resume();
    };
    stream.on("data", onData);
    stream.on("end", () => {
      if (!settled) settle({ ok: true, bytes: Buffer.concat(chunks) });
    });
    stream.on("error", (error) => {
      if (!settled) reject(error);
    });
    stream.on("aborted", () => {
      if (!settled) reject(new Error("the connection closed before the whole body"));
    });
  });
}
