/**
 * The HTTP of the example client, on node:http and node:https: the few parts of fetch it uses.
 * A request has a method, headers and a text body; a reply has its status, its headers (a
 * header sent twice reads as the two values joined by ", ", as fetch joins them) and its text;
 * redirects are followed as fetch follows them, unless `redirect: "manual"`. fetch would do,
 * but it loads undici and compiles its WebAssembly parser first, in a command that does one task
 * and exits: a digest GET took 0.35 s of CPU through fetch, 0.14 s this way (node alone: 0.09).
 *
 * Requests go through `wire.send`, an object's property, so that a test can wrap it: the faulty
 * twins of the tests (test/fixtures/clients/faults.mjs) change what it sends and reads.
 */
import { request as plainRequest } from "node:http";

/** The statuses fetch follows, and the most it follows in a row. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MOST_REDIRECTS = 20;
/** What a redirect to GET leaves behind with the body. */
const BODY_HEADERS = ["content-type", "content-length", "content-encoding", "content-language", "content-location"];

/** A reply's headers as fetch's Headers reads them: by name in any case, null where absent. */
function headersOf(rawHeaders) {
  const values = new Map();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    values.set(name, values.has(name) ? `${values.get(name)}, ${rawHeaders[i + 1]}` : rawHeaders[i + 1]);
  }
  return { get: (name) => values.get(name.toLowerCase()) ?? null };
}

/** One request and its reply, read whole. */
async function exchange(url, { method = "GET", headers = {}, body }) {
  const target = new URL(url);
  const request = target.protocol === "https:" ? (await import("node:https")).request : plainRequest;
  const sent = body === undefined ? headers : { ...headers, "content-length": String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const outgoing = request(target, { method, headers: sent }, (incoming) => {
      const chunks = [];
      incoming.on("data", (chunk) => chunks.push(chunk));
      incoming.on("error", reject);
      incoming.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const status = incoming.statusCode ?? 0;
        resolve({
          url,
          status,
          ok: status >= 200 && status < 300,
          headers: headersOf(incoming.rawHeaders),
          text: async () => text,
        });
      });
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

/** A request as fetch(url, init) sends it, redirects followed; the reply with its text. */
async function send(url, init = {}) {
  let reply = await exchange(url, init);
  let request = { url, init };
  for (let hops = 0; init.redirect !== "manual" && REDIRECTS.has(reply.status); hops++) {
    const location = reply.headers.get("location");
    if (location === null) break;
    if (hops === MOST_REDIRECTS) throw new Error(`${url}: more than ${MOST_REDIRECTS} redirects`);
    request = redirected(request, reply.status, new URL(location, request.url).href);
    reply = await exchange(request.url, request.init);
  }
  return reply;
}

/**
 * The request a redirect asks for: a 303, or a 301 or 302 to a POST, becomes a GET without the
 * body; credentials do not follow to another origin.
 */
function redirected({ url, init }, status, next) {
  const method = init.method ?? "GET";
  const toGet = status === 303 ? method !== "HEAD" : (status === 301 || status === 302) && method === "POST";
  const headers = { ...init.headers };
  if (toGet) for (const name of BODY_HEADERS) delete headers[name];
  if (new URL(next).origin !== new URL(url).origin) delete headers.authorization;
  return { url: next, init: toGet ? { ...init, method: "GET", headers, body: undefined } : { ...init, headers } };
}

export const wire = { send };
