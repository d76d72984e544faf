// npm run soak [-- --minutes N]: mixed clients against the reference for N minutes (default
// 10; fractions allowed): digest logins, updates whose every acknowledgement is checked against
// the snapshot chain, exports, and hostile clients. The reference runs in a child process of
// its own, so the resident memory printed (at start, after warm-up, at the end) is the
// server's alone, with its heap after a full collection beside it. Exits 1 on any 5xx, failed request, unexpected status or lost update.
// Not part of npm test: it takes minutes and a whole core.
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { type RunningReference, startReference } from "../reference/index.ts";
import { type Client, digestLogins, exports, hostile, Tally, updates } from "./soak/clients.ts";

type Urls = RunningReference["urls"];
type Memory = { rss: number; heapUsed: number };
type FromServer = { urls: Urls } | { memory: Memory };

/** Clients of each kind, run at once. */
const MIX: [string, Client, number][] = [
  ["digest logins", digestLogins, 2],
  ["updates", updates, 3],
  ["exports", exports, 1],
  ["hostile", hostile, 2],
];

if (process.argv.includes("--serve")) await serve();
else await soak(minutesAsked());

function minutesAsked(): number {
  const at = process.argv.indexOf("--minutes");
  const minutes = at < 0 ? 10 : Number(process.argv[at + 1]);
  if (!(minutes > 0)) {
    process.stderr.write("soak: --minutes takes a number above 0, e.g. --minutes 1\n");
    process.exit(2);
  }
  return minutes;
}

/** The child: the reference, answering the parent's questions about its memory. */
async function serve(): Promise<void> {
  const reference = await startReference({ host: "127.0.0.1", ports: { base: 0, contacts: 0, messaging: 0 } });
  const send = (message: FromServer) => process.send?.(message);
  process.on("message", async (message) => {
    if (message === "memory") {
      // After a full collection, what the heap holds is what the server keeps, not garbage not yet collected.
      globalThis.gc?.();
      const { rss, heapUsed } = process.memoryUsage();
      send({ memory: { rss, heapUsed } });
    }
    if (message === "stop") {
      await reference.close();
      process.exit(0);
    }
  });
  send({ urls: reference.urls });
}

async function soak(minutes: number): Promise<void> {
  const server = fork(fileURLToPath(import.meta.url), ["--serve"], {
    execArgv: ["--import", "tsx", "--expose-gc"],
    stdio: ["ignore", "inherit", "pipe", "ipc"],
  });
  // The reference logs a line per client that hangs up mid-body: the hostile ones do, on purpose.
  let logLines = 0;
  server.stderr?.on("data", (data: Buffer) => {
    logLines += data.toString().split("\n").length - 1;
  });
  const ask = <T extends FromServer>(question: string | undefined, has: (m: FromServer) => m is T) =>
    new Promise<T>((resolve) => {
      const listener = (message: FromServer) => {
        if (!has(message)) return;
        server.off("message", listener);
        resolve(message);
      };
      server.on("message", listener);
      if (question) server.send(question);
    });
  const isUrls = (m: FromServer): m is { urls: Urls } => "urls" in m;
  const isMemory = (m: FromServer): m is { memory: Memory } => "memory" in m;
  const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  const rss = async () => {
    const { memory } = await ask("memory", isMemory);
    return `${mib(memory.rss)} MiB (heap ${mib(memory.heapUsed)} MiB)`;
  };

  const { urls } = await ask(undefined, isUrls);
  const started = Date.now();
  const until = started + minutes * 60_000;
  const warmUpMs = Math.min(60_000, minutes * 60_000 * 0.2);
  const memory = [`start ${await rss()}`];
  console.log(`soak: ${minutes} min against the reference at ${urls.base} (child ${server.pid})`);
  const tally = new Tally();
  const clients = MIX.flatMap(([, client, count]) => Array.from({ length: count }, () => client(urls, tally, until)));
  const progress = setInterval(
    async () =>
      console.log(`  ${Math.round((Date.now() - started) / 1000)} s: ${tally.requests} requests, ${await rss()}`),
    30_000,
  );
  await new Promise((resolve) => setTimeout(resolve, warmUpMs));
  memory.push(`after ${Math.round(warmUpMs / 1000)} s of warm-up ${await rss()}`);
  await Promise.all(clients);
  clearInterval(progress);
  memory.push(`end ${await rss()}`);
  server.send("stop");

  const seconds = (Date.now() - started) / 1000;
  const statuses = [...tally.statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`);
  const { serverErrors, unexpected, failed, lost } = tally.problems;
  console.log(`clients: ${MIX.map(([name, , count]) => `${count} ${name}`).join(", ")}`);
  console.log(
    `requests: ${tally.requests} in ${seconds.toFixed(0)} s (${Math.round(tally.requests / seconds)}/s); ${statuses.join(", ")}`,
  );
  console.log(`resident memory of the reference: ${memory.join(", ")}`);
  console.log(
    `5xx: ${serverErrors}; failed requests: ${failed}; unexpected statuses: ${unexpected}; server log lines: ${logLines}`,
  );
  console.log(
    `updates acknowledged: ${tally.acknowledged}; found in their snapshot chain: ${tally.verified}; lost: ${lost}`,
  );
  for (const line of tally.examples) console.log(`  ${line}`);
  const clean = serverErrors + failed + unexpected + lost === 0 && tally.verified === tally.acknowledged;
  process.exit(clean ? 0 : 1);
}
