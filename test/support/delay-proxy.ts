/**
 * The bundled reference as if it were far away: a delay proxy on loopback in front of each of
 * its three servers holds every chunk for half the round trip in each direction (and a new
 * connection for one round trip, the TCP handshake), so each request costs at least one round
 * trip. Links in replies name the proxies. For `npm run bench -- network` and the tests of the
 * concurrency a run chooses (harness/run/concurrency.ts).
 *
 *   const far = await farReference({ rttMs: 50 });
 *   … run against far.target, with far.outageMessagingUrl …; await far.close();
 */
import { connect, createServer, type Server, type Socket } from "node:net";
import { resolveDescription, type TargetDescription } from "../../harness/description/target.ts";
import { type FaultName, REFERENCE_DESCRIPTION, startReference } from "../../reference/index.ts";

/** Forwards chunks (and the end) in order, each no earlier than `delay()` ms after it came. */
function delayedPipe(from: Socket, to: Socket, delay: () => number): void {
  const queue: { at: number; chunk?: Buffer }[] = [];
  let scheduled = false;
  const schedule = () => {
    scheduled = true;
    setTimeout(release, Math.max(0, queue[0].at - Date.now()));
  };
  const release = () => {
    scheduled = false;
    while (queue.length > 0 && queue[0].at <= Date.now()) {
      const { chunk } = queue.shift() as { chunk?: Buffer };
      if (chunk) to.write(chunk);
      else to.end();
    }
    if (queue.length > 0) schedule();
  };
  const push = (chunk?: Buffer) => {
    const last = queue.at(-1)?.at ?? 0;
    queue.push({ at: Math.max(last, Date.now() + delay()), chunk });
    if (!scheduled) schedule();
  };
  from.on("data", (chunk: Buffer) => push(chunk));
  from.on("end", () => push());
}

export interface DelayProxy {
  url: string;
  server: Server;
}

/** A proxy on loopback that makes `upstream()` look `rttMs` away (read when each connection opens). */
export async function delayProxy(upstream: () => URL, rttMs: number): Promise<DelayProxy> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const target = upstream();
    const backend = connect(Number(target.port), target.hostname);
    for (const socket of [client, backend]) {
      sockets.add(socket);
      socket.on("error", () => {
        client.destroy();
        backend.destroy();
      });
      socket.on("close", () => sockets.delete(socket));
    }
    // The handshake: nothing the client sends arrives before one round trip has passed.
    const openAt = Date.now() + rttMs;
    delayedPipe(client, backend, () => Math.max(rttMs / 2, openAt + rttMs / 2 - Date.now()));
    delayedPipe(backend, client, () => rttMs / 2);
  });
  server.on("close", () => {
    for (const socket of sockets) socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as import("node:net").AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server };
}

const SERVERS = ["base", "contacts", "messaging"] as const;

export interface FarReference {
  target: TargetDescription;
  /** A messaging server whose contacts server is down (EXP-8), also behind a proxy. */
  outageMessagingUrl: string;
  close(): Promise<void>;
}

export async function farReference(options: { rttMs: number; faults?: FaultName[] }): Promise<FarReference> {
  const upstreams: Partial<Record<(typeof SERVERS)[number] | "outage", URL>> = {};
  const proxies: DelayProxy[] = [];
  const proxied = {} as Record<(typeof SERVERS)[number] | "outage", string>;
  for (const name of [...SERVERS, "outage"] as const) {
    const proxy = await delayProxy(() => upstreams[name] as URL, options.rttMs);
    proxies.push(proxy);
    proxied[name] = proxy.url;
  }
  const ports = { base: 0, contacts: 0, messaging: 0 };
  const mode = { faults: options.faults ?? [], variant: "standard" as const };
  const reference = await startReference({ host: "127.0.0.1", ports, publicUrls: proxied, ...mode });
  const outage = await startReference({
    host: "127.0.0.1",
    ports,
    servers: ["messaging"],
    publicUrls: { contacts: "http://127.0.0.1:9", messaging: proxied.outage },
    ...mode,
  });
  for (const name of SERVERS) upstreams[name] = new URL(reference.boundUrls[name] as string);
  upstreams.outage = new URL(outage.boundUrls.messaging as string);
  const resolved = resolveDescription([
    REFERENCE_DESCRIPTION,
    { baseUrl: proxied.base, contactsUrl: proxied.contacts, messagingUrl: proxied.messaging },
  ]);
  if (!resolved.ok) throw new Error(resolved.error);
  return {
    target: resolved.value,
    outageMessagingUrl: proxied.outage,
    close: async () => {
      await Promise.all([reference.close(), outage.close()]);
      await Promise.all(proxies.map(({ server }) => new Promise((resolve) => server.close(resolve))));
    },
  };
}
