// npm run bench -- digest: digest-authenticated GETs per second against the reference (as it
// ships, with one-time nonces, and with --nonce-policy unlimited: nonces reused with nc
// counting up, as Apache reuses them by default), a bare node:http server (no checking at
// all: the ceiling for node) and, where apache2 is installed, Apache httpd with
// mod_auth_digest, configured here in a temp dir. One load
// generator drives each in turn in this process (16 connections, MD5, qop auth, each
// connection following nextnonce where the server sends one, else counting nc up); every
// server runs in a process of its own, in turns, over several rounds. Prints requests/s and
// server CPU per request for each round, then the medians, and the reference's ratios taken
// round by round (a shared machine's speed drifts between rounds; the median, not the best):
// requests/s and requests per CPU second, each against issue 25's goal (at least 0.5x the bare
// server and 1.5x Apache); asserts nothing.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Pool } from "undici";
import { parseParamList } from "../../lib/auth-params.ts";
import { hashA1 } from "../../lib/digest-math.ts";
import { DEMO_USER, REALM } from "../../reference/digest/routes.ts";
import {
  answerChallenge,
  authorizationOf,
  chooseChallenge,
  type DigestChallenge,
  digestChallenges,
} from "../../steps/digest/digest-client.ts";
import { median } from "./stats.ts";

const CONNECTIONS = 16;
/** Before a server's first measurement: a fresh node process needs seconds before its JIT has settled. */
const WARM_UP_MS = 3000;
/** Before each later one: the connections are new, the server is not. */
const SETTLE_MS = 500;
const MEASURE_MS = Number(process.env.SXD_BENCH_MS ?? 3000);
/** Many short rounds in turns: a shared machine's speed drifts by a third over tens of seconds. */
const ROUNDS = Number(process.env.SXD_BENCH_ROUNDS ?? 7);
const PATH = "/protected";
const APACHE = "Apache httpd mod_auth_digest";

interface Server {
  name: string;
  origin: string;
  /** The server's process: its CPU time (and its children's) is read from /proc. */
  pid?: number;
  stop(): void;
}

interface Load {
  granted: number;
  rechallenged: number;
  failed: number;
  perSecond: number;
  /** CPU time the server's processes spent per granted request, where /proc tells. */
  cpuMicroseconds?: number;
}

/** User + system CPU seconds of a process and its direct children (Apache's workers), from /proc. */
function cpuSeconds(pid: number): number | undefined {
  const ticksPerSecond = 100;
  try {
    let ticks = 0;
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      } catch {
        continue;
      }
      // Fields after the command name, which sits in parentheses and may hold spaces.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(entry) !== pid && Number(fields[1]) !== pid) continue;
      ticks += Number(fields[11]) + Number(fields[12]);
    }
    return ticks / ticksPerSecond;
  } catch {
    return undefined;
  }
}

/** Starts a child process and waits for the line that names its URL. */
function startChild(name: string, command: string, args: string[], urlLine: RegExp): Promise<Server> {
  const child: ChildProcess = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let seen = "";
    const look = (data: Buffer) => {
      seen += data.toString();
      const match = urlLine.exec(seen);
      if (match) resolve({ name, origin: match[1], pid: child.pid, stop: () => child.kill() });
    };
    child.stdout?.on("data", look);
    child.stderr?.on("data", (data: Buffer) => {
      seen += data.toString();
    });
    child.once("exit", (code) => reject(new Error(`${name} exited (${code}) before it listened: ${seen}`)));
  });
}

const BARE_SERVER = `
const http = require("node:http");
const challenge = 'Digest realm="${REALM}", qop="auth", algorithm=MD5, nonce="bare-nonce"';
const server = http.createServer((req, res) => {
  if (!req.headers.authorization) {
    res.writeHead(401, { "www-authenticate": challenge, "content-type": "application/xml", "content-length": 4 });
    res.end("<e/>");
    return;
  }
  const body = "<protected><user>demo</user><message>access granted</message></protected>";
  res.writeHead(200, { "content-type": "application/xml", "content-length": Buffer.byteLength(body) });
  res.end(body);
});
server.keepAliveTimeout = 10000;
server.listen(0, "127.0.0.1", () => console.log("listening http://127.0.0.1:" + server.address().port));
`;

function hasApache(): boolean {
  try {
    execFileSync("apache2", ["-v"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Apache with mod_auth_digest guarding a static file, the demo user in an htdigest file. */
async function startApache(port: number): Promise<Server> {
  const dir = mkdtempSync(join(tmpdir(), "sxd-apache-"));
  chmodSync(dir, 0o755);
  const users = join(dir, "users.htdigest");
  writeFileSync(
    users,
    `${DEMO_USER.username}:${REALM}:${hashA1("MD5", DEMO_USER.username, REALM, DEMO_USER.password)}\n`,
  );
  writeFileSync(join(dir, "protected"), "<protected><user>demo</user><message>access granted</message></protected>");
  const runAs = process.getuid?.() === 0 ? "User www-data\nGroup www-data\n" : "";
  const conf = join(dir, "httpd.conf");
  writeFileSync(
    conf,
    `ServerRoot /usr/lib/apache2
ServerName 127.0.0.1
Listen 127.0.0.1:${port}
PidFile ${dir}/httpd.pid
ErrorLog ${dir}/error.log
LogLevel warn
${runAs}LoadModule mpm_event_module modules/mod_mpm_event.so
LoadModule authn_core_module modules/mod_authn_core.so
LoadModule authn_file_module modules/mod_authn_file.so
LoadModule authz_core_module modules/mod_authz_core.so
LoadModule authz_user_module modules/mod_authz_user.so
LoadModule auth_digest_module modules/mod_auth_digest.so
KeepAlive On
MaxKeepAliveRequests 0
KeepAliveTimeout 10
DocumentRoot ${dir}
<Location ${PATH}>
  ForceType application/xml
  AuthType Digest
  AuthName "${REALM}"
  AuthDigestProvider file
  AuthUserFile ${users}
  Require valid-user
</Location>
`,
  );
  const child = spawn("apache2", ["-f", conf, "-DFOREGROUND"], { stdio: "ignore" });
  const origin = `http://127.0.0.1:${port}`;
  for (let tries = 0; tries < 100; tries++) {
    const up = await fetch(origin + PATH).then(
      () => true,
      () => false,
    );
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    name: APACHE,
    origin,
    pid: child.pid,
    stop: () => {
      child.kill("SIGTERM");
      setTimeout(() => rmSync(dir, { recursive: true, force: true }), 1000).unref();
    },
  };
}

function withNonce(challenge: DigestChallenge, nonce: string): DigestChallenge {
  return { ...challenge, params: new Map([...challenge.params, ["nonce", nonce]]), stale: false };
}

/** One connection's worth of clients: answer, follow nextnonce or count nc up, re-answer a 401. */
async function drive(pool: Pool, until: () => boolean, load: Load, counting: () => boolean): Promise<void> {
  let challenge: DigestChallenge | undefined;
  let nc = 0;
  while (!until()) {
    const headers: Record<string, string> = {};
    if (challenge) {
      nc++;
      const answer = answerChallenge(
        challenge,
        "MD5",
        { method: "GET", uri: PATH },
        { username: DEMO_USER.username, password: DEMO_USER.password, qop: "auth", nc },
      );
      headers.authorization = authorizationOf(answer.directives);
    }
    const reply = await pool.request({ method: "GET", path: PATH, headers });
    await reply.body.dump();
    const counts = counting() && challenge !== undefined;
    if (reply.statusCode === 200) {
      if (counts) load.granted++;
      const info = parseParamList(String(reply.headers["authentication-info"] ?? ""));
      const next = info.ok ? info.value.get("nextnonce") : undefined;
      if (next && challenge) {
        challenge = withNonce(challenge, next);
        nc = 0;
      }
    } else if (reply.statusCode === 401) {
      if (counts) load.rechallenged++;
      const offered = digestChallenges(reply.headers["www-authenticate"] as string | undefined);
      const md5 = offered.ok ? chooseChallenge(offered.value, "MD5") : undefined;
      if (!md5) throw new Error(`no MD5 challenge in ${String(reply.headers["www-authenticate"])}`);
      challenge = md5.challenge;
      nc = 0;
    } else {
      if (counts) load.failed++;
    }
  }
}

async function measure(server: Server, warmUpMs: number): Promise<Load> {
  const pool = new Pool(server.origin, { connections: CONNECTIONS, pipelining: 1 });
  const load: Load = { granted: 0, rechallenged: 0, failed: 0, perSecond: 0 };
  const started = Date.now();
  const countFrom = started + warmUpMs;
  const stopAt = countFrom + MEASURE_MS;
  let cpuAtStart: number | undefined;
  setTimeout(() => {
    cpuAtStart = server.pid === undefined ? undefined : cpuSeconds(server.pid);
  }, warmUpMs);
  await Promise.all(
    Array.from({ length: CONNECTIONS }, () =>
      drive(
        pool,
        () => Date.now() >= stopAt,
        load,
        () => Date.now() >= countFrom,
      ),
    ),
  );
  const cpuAtEnd = server.pid === undefined ? undefined : cpuSeconds(server.pid);
  await pool.close();
  load.perSecond = load.granted / (MEASURE_MS / 1000);
  if (cpuAtStart !== undefined && cpuAtEnd !== undefined && load.granted > 0) {
    load.cpuMicroseconds = ((cpuAtEnd - cpuAtStart) / load.granted) * 1e6;
  }
  return load;
}

async function freePort(): Promise<number> {
  const { createServer } = await import("node:net");
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as import("node:net").AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The reference as it ships (one-time nonces), and with nonces reused as Apache reuses them by
 * default; with SXD_BENCH_EARLIER (another checkout's bin/sxd.js, built), that checkout's
 * reference as it ships too, so that a change's before and after come from one run.
 */
function referencesToRun(): { name: string; sxd: string; args: string[] }[] {
  const sxd = process.env.SXD_BENCH_SXD ?? "bin/sxd.js";
  const earlier = process.env.SXD_BENCH_EARLIER;
  return [
    { name: "sxd reference, one-time nonces", sxd, args: [] },
    { name: "sxd reference, reused nonces", sxd, args: ["--nonce-policy", "unlimited"] },
    ...(earlier === undefined ? [] : [{ name: "earlier sxd reference, one-time", sxd: earlier, args: [] }]),
  ];
}

export async function benchDigest(): Promise<void> {
  const references = referencesToRun();
  const servers: Server[] = [];
  for (const { name, sxd, args } of references) {
    const command = [sxd, "serve", "base", "--port", "0", ...args];
    servers.push(await startChild(name, process.execPath, command, /(http:\/\/127\.0\.0\.1:\d+)\n/));
  }
  servers.push(await startChild("bare node:http", process.execPath, ["-e", BARE_SERVER], /listening (http:\/\/\S+)\n/));
  if (hasApache()) servers.push(await startApache(await freePort()));
  else process.stdout.write("apache2 is not installed: no Apache figures (apt-get install apache2)\n");
  const rounds = new Map<string, Load[]>();
  try {
    process.stdout.write(
      `digest-authenticated GET ${PATH}, ${CONNECTIONS} connections, MD5 qop=auth, ${MEASURE_MS / 1000} s each, ${ROUNDS} rounds:\n`,
    );
    for (let round = 1; round <= ROUNDS; round++) {
      for (const server of round % 2 === 1 ? servers : [...servers].reverse()) {
        const load = await measure(server, round === 1 ? WARM_UP_MS : SETTLE_MS);
        rounds.set(server.name, [...(rounds.get(server.name) ?? []), load]);
        process.stdout.write(
          `  round ${round}  ${server.name.padEnd(34)} ${load.perSecond.toFixed(0).padStart(7)} requests/s` +
            `  ${load.cpuMicroseconds === undefined ? "" : `${load.cpuMicroseconds.toFixed(0).padStart(5)} µs server CPU/request`}` +
            `  (401 re-challenges ${load.rechallenged}, other statuses ${load.failed})\n`,
        );
      }
    }
  } finally {
    for (const server of servers) server.stop();
  }
  const perSecond = (name: string) => median((rounds.get(name) ?? []).map((load) => load.perSecond));
  const cpu = (name: string) =>
    median(
      (rounds.get(name) ?? []).flatMap((load) => (load.cpuMicroseconds === undefined ? [] : [load.cpuMicroseconds])),
    );
  const names = references.map((r) => r.name);
  process.stdout.write("median of the rounds (requests/s; server CPU per request):\n");
  for (const name of rounds.keys()) {
    process.stdout.write(
      `  ${name.padEnd(34)} ${perSecond(name).toFixed(0).padStart(7)} requests/s ${Number.isNaN(cpu(name)) ? "  n/a" : cpu(name).toFixed(0).padStart(5)} µs\n`,
    );
  }
  process.stdout.write("each reference against each other server, round by round (median, and range):\n");
  for (const reference of names) {
    for (const name of rounds.keys()) {
      if (names.includes(name)) continue;
      const figures = FIGURES.map(
        ({ label, ratio }) => `${shown(pairedRatios(rounds, reference, name, ratio))} the ${label}`,
      );
      process.stdout.write(`  ${reference} / ${name}: ${figures.join(", ")}\n`);
    }
  }
  printGoal(rounds, names[0]);
  const earlier = names.find((name) => name.startsWith("earlier"));
  if (earlier !== undefined) printGoal(rounds, earlier);
}

/** A ratio of the reference's figure to another server's in one round: "how many of the other's". */
type Ratio = (mine: Load, theirs: Load) => number | undefined;

/**
 * Requests/s, and requests per second of server CPU (the other's CPU per request over ours),
 * which does not depend on how much of the machine the load generator leaves over.
 */
const FIGURES: { label: string; ratio: Ratio }[] = [
  { label: "requests/s", ratio: (mine, theirs) => mine.perSecond / theirs.perSecond },
  {
    label: "requests per CPU second",
    ratio: (mine, theirs) =>
      mine.cpuMicroseconds === undefined || theirs.cpuMicroseconds === undefined
        ? undefined
        : theirs.cpuMicroseconds / mine.cpuMicroseconds,
  },
];

/**
 * Each ratio is taken within a round, where the two servers ran seconds apart (the median
 * over the rounds is then taken): the machine's drift between rounds cancels out.
 */
function pairedRatios(rounds: Map<string, Load[]>, mine: string, theirs: string, ratio: Ratio): number[] {
  const other = rounds.get(theirs) ?? [];
  return (rounds.get(mine) ?? []).flatMap((load, round) => {
    const value = other[round] === undefined ? undefined : ratio(load, other[round]);
    return value === undefined || !Number.isFinite(value) ? [] : [value];
  });
}

function shown(ratios: number[]): string {
  if (ratios.length === 0) return "n/a";
  const low = Math.min(...ratios).toFixed(2);
  const high = Math.max(...ratios).toFixed(2);
  return `${median(ratios).toFixed(2)}x (rounds ${low}–${high})`;
}

/** Issue 25's goal: the reference as it ships makes at least half a bare server's GETs and 1.5 times Apache's. */
const GOAL: { server: string; atLeast: number }[] = [
  { server: "bare node:http", atLeast: 0.5 },
  { server: APACHE, atLeast: 1.5 },
];

function printGoal(rounds: Map<string, Load[]>, reference: string): void {
  process.stdout.write(`the goal, for the ${reference} (median of the rounds):\n`);
  for (const { server, atLeast } of GOAL) {
    for (const { label, ratio } of FIGURES) {
      const ratios = pairedRatios(rounds, reference, server, ratio);
      const verdict = ratios.length === 0 ? "not measured" : median(ratios) >= atLeast ? "met" : "not met";
      process.stdout.write(
        `  reference / ${server}, ${label}: ${shown(ratios).padEnd(26)} goal ≥ ${atLeast}x: ${verdict}\n`,
      );
    }
  }
}
