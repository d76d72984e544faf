/**
 * A server of the matrix brought up for its cells: URLs already running, or a start command
 * run through the shell in a process group of its own, on ports sxd chose, until something
 * answers HTTP on each of its URLs. Stopping ends the whole group; `stopAllServers` is what a
 * Ctrl-C or an error calls, so no server is left behind.
 */
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { resolveDescription, type TargetDescription } from "../description/target.ts";
import type { InteropTask } from "../evidence/interop-document.ts";
import { usersEnvironment } from "../package.ts";
import type { MatrixServer } from "./matrix-file.ts";

export interface ServerUrls {
  base: string;
  contacts?: string;
  messaging?: string;
}

export interface UpServer {
  urls: ServerUrls;
  target: TargetDescription;
  stop(): Promise<void>;
}

export type Bringing = { ok: true; server: UpServer } | { ok: false; problem: string; urls: ServerUrls };

/** The tasks a server takes part in, from what its description has: a digest section, a snapshots section, export URLs. */
export function servedTasks(described: Partial<TargetDescription>, urls: ServerUrls): InteropTask[] {
  return [
    ...(described.digest !== undefined ? (["digest-get", "digest-post"] as const) : []),
    ...(described.snapshots !== undefined ? (["update", "history"] as const) : []),
    ...(urls.contacts !== undefined && urls.messaging !== undefined ? (["export"] as const) : []),
  ];
}

/** Whether a started server gets export ports: its description has an export section. */
const hasExport = (server: MatrixServer) =>
  server.description.export !== undefined || server.description.contactsUrl !== undefined;

const running = new Set<() => Promise<void>>();

/** Stops every started server still running (Ctrl-C, an error in sxd). */
export async function stopAllServers(): Promise<void> {
  await Promise.all([...running].map((stop) => stop()));
}

/** Brings the server up (or takes its URLs); `logDir` gets the start command's output. */
export async function bringUp(server: MatrixServer, folder: string, logDir: string): Promise<Bringing> {
  if (server.place.kind === "running") {
    const { base, contacts, messaging } = server.place;
    const urls = { base, ...(contacts ? { contacts } : {}), ...(messaging ? { messaging } : {}) };
    return described(server, urls, async () => undefined);
  }
  const ports = {
    base: await freePort(),
    ...(hasExport(server) ? { contacts: await freePort(), messaging: await freePort() } : {}),
  };
  const urls: ServerUrls = {
    base: local(ports.base),
    ...(ports.contacts ? { contacts: local(ports.contacts), messaging: local(ports.messaging as number) } : {}),
  };
  const workDir = join(logDir, "work");
  mkdirSync(workDir, { recursive: true });
  const environment: Record<string, string> = {
    SXD_PORT: String(ports.base),
    SXD_WORK_DIR: workDir,
    ...(ports.contacts
      ? { SXD_CONTACTS_PORT: String(ports.contacts), SXD_MESSAGING_PORT: String(ports.messaging) }
      : {}),
  };
  const log = createWriteStream(join(logDir, "server.log"));
  const child = spawn("sh", ["-c", server.place.start], {
    cwd: folder,
    env: { ...usersEnvironment(), ...environment },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  let exited: string | undefined;
  const gone = new Promise<void>((resolve) => {
    child.on("error", (error) => {
      exited = `the start command could not run: ${error.message}`;
      resolve();
    });
    child.on("exit", (code, signal) => {
      exited = `the start command ended (${signal ?? `exit ${code}`}) before its cells were done`;
      resolve();
    });
  });
  const signal = (name: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, name);
    } catch {
      // The group is gone already.
    }
  };
  const stop = async () => {
    running.delete(stop);
    signal("SIGTERM");
    const late = setTimeout(() => signal("SIGKILL"), STOP_GRACE_MS);
    let given: NodeJS.Timeout | undefined;
    await Promise.race([gone, new Promise((resolve) => (given = setTimeout(resolve, STOP_GRACE_MS + 500)))]);
    // Neither timer may outlive the stop: a pending one kept sxd from exiting for 3.5 s after the run.
    clearTimeout(late);
    clearTimeout(given);
    // Whatever the command left in its group goes too.
    signal("SIGKILL");
    log.end();
  };
  running.add(stop);
  const deadline = Date.now() + server.place.waitSeconds * 1000;
  for (const url of Object.values(urls)) {
    const problem = await untilAnswers(url, deadline, () => exited, server.place.waitSeconds);
    if (problem) {
      await stop();
      return { ok: false, problem, urls };
    }
  }
  return described(server, urls, stop);
}

function described(server: MatrixServer, urls: ServerUrls, stop: () => Promise<void>): Bringing {
  const resolved = resolveDescription([
    server.description,
    { baseUrl: urls.base, contactsUrl: urls.contacts, messagingUrl: urls.messaging },
  ]);
  if (!resolved.ok) return { ok: false, problem: resolved.error, urls };
  return { ok: true, server: { urls, target: resolved.value, stop } };
}

/** How long a stopped server's group has after SIGTERM before SIGKILL. */
const STOP_GRACE_MS = 3000;

const local = (port: number) => `http://127.0.0.1:${port}`;

/**
 * A port for a server sxd starts, free when asked. Picked at random below the system's
 * ephemeral range, never with listen(0): a port from that range, free when sxd looks, is the
 * next one the system hands to any other process's listen(0) or outgoing connection before the
 * server has bound it, and a server of another program's on that port would answer for this
 * one (seen: every cell of one server "issued no Digest challenge" beside other tests' servers).
 */
export async function freePort(): Promise<number> {
  const [low] = ephemeralRange();
  const floor = Math.min(20_000, low - 1000);
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = floor + Math.floor(Math.random() * (low - floor));
    if (await bindable(port)) return port;
  }
  // Twenty ports taken in a row: the range is crowded, so the system's choice it is.
  const given = await bindable(0);
  if (given === false) throw new Error("no port is free on 127.0.0.1");
  return given;
}

/** Linux's range of ports for listen(0) and outgoing connections; its default elsewhere. */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
    if (low > 2000 && high >= low) return [low, high];
  } catch {
    // Not Linux: IANA's dynamic range.
  }
  return [49152, 65535];
}

/** The port, once listening on it and closing again worked (0: the port the system gave); false where it is taken. */
function bindable(port: number): Promise<number | false> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => {
      const address = probe.address();
      const bound = typeof address === "object" && address ? address.port : port;
      probe.close(() => resolve(bound));
    });
  });
}

/** Polls until any HTTP reply comes back; the problem in words where none does in time. */
async function untilAnswers(
  url: string,
  deadline: number,
  exited: () => string | undefined,
  waitSeconds: number,
): Promise<string | undefined> {
  for (;;) {
    const ended = exited();
    if (ended) return ended.replace(" before its cells were done", ` before ${url} answered HTTP`);
    const left = deadline - Date.now();
    if (left <= 0) return `${url} did not answer HTTP within ${waitSeconds} s`;
    try {
      const reply = await fetch(url, { signal: AbortSignal.timeout(Math.min(left, 2000)), redirect: "manual" });
      await reply.body?.cancel();
      return undefined;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, Math.min(200, Math.max(left, 0))));
    }
  }
}
