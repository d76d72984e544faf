// npm run bench -- network: the whole suite against the reference over a slow network. A
// delay proxy in front of each of the three servers holds every chunk for half the round
// trip in each direction (and a new connection for one round trip, the TCP handshake), so
// each request costs at least one round trip. The suite runs at several --parallel values;
// each line prints the wall time against the bound the round trips set: the requests of the
// longest scenario x RTT, or all requests x RTT / parallelism, whichever is larger (request
// counts from the run's own conformance.json).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SERVER_NAMES, type ServerName, startReference } from "../../reference/server.ts";

const RTT_MS = Number(process.env.SXD_BENCH_RTT_MS ?? 50);
const PARALLELISM = (process.env.SXD_BENCH_PARALLEL ?? "1,2,4,8,16").split(",").map(Number);

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

interface DelayProxy {
  url: string;
  server: Server;
}

async function delayProxy(upstream: () => URL): Promise<DelayProxy> {
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
    const openAt = Date.now() + RTT_MS;
    delayedPipe(client, backend, () => Math.max(RTT_MS / 2, openAt + RTT_MS / 2 - Date.now()));
    delayedPipe(backend, client, () => RTT_MS / 2);
  });
  server.on("close", () => {
    for (const socket of sockets) socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as import("node:net").AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server };
}

interface RunFigures {
  wallMs: number;
  exit: number | null;
  requests: number;
  longestScenario: number;
}

interface Report {
  rows: Array<{ scenarios: Array<{ location: string; exchanges: unknown[] }> }>;
}

/** The suite in a child process; asynchronously, since the proxies and servers run in this one. */
async function runSuite(configFile: string, parallel: number, reportDir: string): Promise<RunFigures> {
  const started = Date.now();
  const child = spawn(
    process.execPath,
    ["bin/sxd.js", "test", "--config", configFile, "--parallel", String(parallel), "--report-dir", reportDir],
    { stdio: "ignore" },
  );
  const exit = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  const wallMs = Date.now() - started;
  const report = JSON.parse(readFileSync(join(reportDir, "conformance.json"), "utf8")) as Report;
  const perScenario = new Map<string, number>();
  for (const row of report.rows) {
    for (const scenario of row.scenarios) perScenario.set(scenario.location, scenario.exchanges.length);
  }
  const counts = [...perScenario.values()];
  return {
    wallMs,
    exit,
    requests: counts.reduce((sum, n) => sum + n, 0),
    longestScenario: Math.max(...counts),
  };
}

export async function benchNetwork(): Promise<void> {
  const upstreams: Partial<Record<ServerName, URL>> = {};
  const proxies = {} as Record<ServerName, DelayProxy>;
  for (const name of SERVER_NAMES) proxies[name] = await delayProxy(() => upstreams[name] as URL);
  const reference = await startReference({
    host: "127.0.0.1",
    ports: { base: 0, contacts: 0, messaging: 0 },
    publicUrls: { base: proxies.base.url, contacts: proxies.contacts.url, messaging: proxies.messaging.url },
  });
  for (const name of SERVER_NAMES) upstreams[name] = new URL(reference.boundUrls[name] as string);
  const dir = mkdtempSync(join(tmpdir(), "sxd-bench-network-"));
  const description = JSON.parse(readFileSync("examples/reference.json", "utf8"));
  const configFile = join(dir, "target.json");
  writeFileSync(
    configFile,
    JSON.stringify({
      ...description,
      baseUrl: proxies.base.url,
      contactsUrl: proxies.contacts.url,
      messagingUrl: proxies.messaging.url,
    }),
  );
  process.stdout.write(
    `the suite through a delay proxy (${RTT_MS} ms round trip) in front of each reference server:\n` +
      "  --parallel   wall s   bound s   wall/bound   requests   longest scenario   exit\n",
  );
  try {
    for (const parallel of PARALLELISM) {
      const run = await runSuite(configFile, parallel, join(dir, `p${parallel}`));
      const boundMs = Math.max(run.longestScenario * RTT_MS, (run.requests * RTT_MS) / parallel);
      process.stdout.write(
        `  ${String(parallel).padStart(10)}   ${(run.wallMs / 1000).toFixed(1).padStart(6)}   ${(boundMs / 1000).toFixed(1).padStart(7)}` +
          `   ${(run.wallMs / boundMs).toFixed(2).padStart(10)}   ${String(run.requests).padStart(8)}` +
          `   ${String(run.longestScenario).padStart(16)}   ${run.exit}\n`,
      );
    }
  } finally {
    await reference.close();
    for (const proxy of Object.values(proxies)) proxy.server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
