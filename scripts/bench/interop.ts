// npm run bench -- interop: `sxd interop` on a matrix of 4 clients by 4 servers, every task,
// one cell at a time (--parallel 1) against the default cells at once, in turns over a few
// rounds (SXD_BENCH_INTEROP_ROUNDS, default 1). The servers are the reference (all three of its
// servers, so every task is served) as it ships, with a fault of the digest, of the export and
// of the snapshots, and offering only MD5 with qop auth; the clients the example client started
// slowly (a node process that waits first, as a JVM takes a second to start), the same with a
// wrong response, curl and wget. Each side's own verdict is given (a conformance.json), so the
// run is the cells alone. Prints the wall times, their ratio and whether every cell's result,
// blame, why and rows came out the same; then the same for one server's 20 cells, which run at
// once where they share nothing of its state. Asserts nothing.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPORT_FILES } from "../../harness/evidence/report-folder.ts";
import { printComparison, type Timed, timeSxd } from "./clients.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
const ROUNDS = Number(process.env.SXD_BENCH_INTEROP_ROUNDS ?? 1);
const ADAPTER = join(ROOT, "examples/clients/node/adapter.sh");
const FAULTS = join(ROOT, "test/fixtures/clients/faults.mjs");
const FIXTURE_CLIENTS = join(ROOT, "test/fixtures/interop/clients");

const waitThen = (ms: number, command: string) => `node -e 'setTimeout(() => {}, ${ms})' && ${command}`;
const reference = (options: string) =>
  `node ${join(ROOT, "bin/sxd.js")} serve --port $SXD_PORT --contacts-port $SXD_CONTACTS_PORT --messaging-port $SXD_MESSAGING_PORT ${options}`;

function matrixFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), "sxd-bench-interop-"));
  writeFileSync(
    join(folder, REPORT_FILES.conformanceJson),
    JSON.stringify({
      suite: { name: "sxd", version: "0" },
      target: { baseUrl: "http://127.0.0.1:1" },
      date: "2026-01-01T00:00:00Z",
      strict: false,
      overall: "conformant",
      rows: [],
    }),
  );
  const server = (options: string) => ({
    start: reference(options),
    config: join(ROOT, "examples/reference.json"),
    wait: 30,
    conformance: REPORT_FILES.conformanceJson,
  });
  const client = (run: string) => ({ run, conformance: REPORT_FILES.conformanceJson });
  writeFileSync(
    join(folder, "matrix.json"),
    JSON.stringify({
      servers: {
        reference: server(""),
        "quoted-algorithm": server("--fault dig-algorithm-quoted-lower"),
        "export-302-update-200": server("--fault exp-302-not-303 --fault snap-update-200"),
        "md5-auth": server("--digest-algorithms MD5 --digest-qop auth"),
      },
      clients: {
        "slow-node": client(waitThen(1000, `sh ${ADAPTER}`)),
        "slow-node-wrong": client(
          waitThen(500, `NODE_OPTIONS='--import ${FAULTS}' CLIENT_FAULT=wrong-response sh ${ADAPTER}`),
        ),
        curl: client(`sh ${join(FIXTURE_CLIENTS, "curl.sh")}`),
        wget: client(`sh ${join(FIXTURE_CLIENTS, "wget.sh")}`),
      },
    }),
  );
  return folder;
}

interface Cell {
  client: string;
  server: string;
  task: string;
  result: string;
  blame: string | null;
  why: string;
  rows: { client: { id: string; reason: string }[]; server: { id: string; reason: string }[] };
}

/** Every cell as judged, ports and nonces aside (they differ from run to run by design). */
function cellsJudged(reportDir: string): string {
  const doc = JSON.parse(readFileSync(join(reportDir, REPORT_FILES.interopJson), "utf8")) as { cells: Cell[] };
  const steady = (text: string) =>
    text
      .replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:<port>")
      .replace(/after \d+ ms/g, "after <n> ms")
      .replace(/[0-9a-f]{16,}|[A-Za-z0-9_-]{32,}/g, "<token>");
  const cells = doc.cells
    .map((cell) =>
      steady(
        JSON.stringify([
          cell.client,
          cell.server,
          cell.task,
          cell.result,
          cell.blame,
          cell.why,
          cell.rows.client.map((row) => [row.id, row.reason]),
          cell.rows.server.map((row) => [row.id, row.reason]),
        ]),
      ),
    )
    .sort();
  return cells.join("\n");
}

export async function benchInterop(): Promise<void> {
  const folder = matrixFolder();
  try {
    await compare(join(folder, "matrix.json"));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

async function compare(matrix: string): Promise<void> {
  process.stdout.write(
    `sxd interop, 4 clients × 4 servers × 5 tasks (the reference's three servers each), own verdicts given; ${ROUNDS} round(s) in turns\n`,
  );
  const serial: Timed[] = [];
  const atOnce: Timed[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    serial.push(await timeSxd(["interop", matrix, "--parallel", "1"], cellsJudged));
    atOnce.push(await timeSxd(["interop", matrix], cellsJudged));
  }
  printComparison({ serial: "--parallel 1", atOnce: "default" }, serial, atOnce);
  const differing = atOnce.find((run) => run.verdicts !== serial[0]?.verdicts);
  if (differing) {
    const one = new Set(serial[0]?.verdicts.split("\n"));
    const lines = differing.verdicts.split("\n").filter((line) => !one.has(line));
    process.stdout.write(`cells judged otherwise at once:\n${lines.join("\n")}\n`);
  }
  const tally = new Map<string, number>();
  for (const line of (serial[0]?.verdicts ?? "").split("\n")) {
    const [, , , result, blame] = JSON.parse(line) as string[];
    const key = blame ? `${result} (${blame})` : `${result}`;
    tally.set(key, (tally.get(key) ?? 0) + 1);
  }
  process.stdout.write(`cells: ${[...tally].map(([key, n]) => `${n} ${key}`).join(", ")}\n`);

  // One server: its cells at once are those that share nothing of its state (harness/interop/lanes.ts).
  process.stdout.write("\nthe same on one server (the reference as it ships), 4 clients × 5 tasks\n");
  const oneServer = ["interop", matrix, "--servers", "reference"];
  const serialOne: Timed[] = [];
  const atOnceOne: Timed[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    serialOne.push(await timeSxd([...oneServer, "--parallel", "1"], cellsJudged));
    atOnceOne.push(await timeSxd(oneServer, cellsJudged));
  }
  printComparison({ serial: "--parallel 1", atOnce: "default" }, serialOne, atOnceOne);
}
