// npm run bench -- storage: does the reference survive a client that stores as much as it
// can? Starts `sxd serve base` under `node --max-old-space-size=1024` with the default limits,
// PUTs 255 KB entries (new resources, then updates making snapshots) until they get 507, and
// prints how many were stored, the server's resident memory, and whether it still
// answers. Asserts nothing; the test suite checks the 507 itself with small limits.

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { Pool } from "undici";
import { ATOM_ENTRY_TYPE } from "../../lib/media-type.ts";

const ENTRY_KB = 255;
const CONCURRENCY = 4;

function entry(name: string, fill: string): string {
  return `<entry xmlns="http://www.w3.org/2005/Atom"><author><name>flood</name></author><title>${name}</title><id>urn:sxd:flood:${name}</id><content>${fill}</content></entry>`;
}

function residentMegabytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

export async function benchStorage(): Promise<void> {
  const child = spawn(process.execPath, ["--max-old-space-size=1024", "bin/sxd.js", "serve", "base", "--port", "0"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let exited = false;
  child.once("exit", () => {
    exited = true;
  });
  const origin = await new Promise<string>((resolve) => {
    let seen = "";
    child.stdout.on("data", (data: Buffer) => {
      seen += data.toString();
      const found = /(http:\/\/127\.0\.0\.1:\d+)\n/.exec(seen);
      if (found) resolve(found[1]);
    });
  });
  const pid = child.pid as number;
  const pool = new Pool(origin, { connections: CONCURRENCY });
  const fill = "x".repeat(ENTRY_KB * 1024 - 200);
  const counts = { created: 0, updated: 0, refused: 0, other: 0 };
  const started = Date.now();
  let next = 0;
  const put = async (name: string, headers: Record<string, string>) => {
    const reply = await pool.request({
      method: "PUT",
      path: `/entries/${name}`,
      headers: { "content-type": ATOM_ENTRY_TYPE, ...headers },
      body: entry(name, fill),
    });
    await reply.body.dump();
    return reply.statusCode;
  };
  try {
    // New resources until the store refuses five in a row, then updates of the first one.
    let refusedInARow = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (refusedInARow < 5 && !exited) {
          const status = await put(`flood-${next++}`, { "if-none-match": "*" });
          if (status === 201) counts.created++;
          else if (status === 507) counts.refused++;
          else counts.other++;
          refusedInARow = status === 507 ? refusedInARow + 1 : 0;
        }
      }),
    );
    const afterCreates = residentMegabytes(pid);
    // Room for ten entries: one resource and its snapshots fill it again.
    for (let i = 0; i < 10; i++)
      await (await pool.request({ method: "DELETE", path: `/entries/flood-${i}` })).body.dump();
    await put("flood-0", { "if-none-match": "*" });
    for (let i = 0; i < 2000 && !exited; i++) {
      const status = await put("flood-0", { "if-match": "*" });
      if (status === 204) counts.updated++;
      else if (status === 507) {
        counts.refused++;
        break;
      } else counts.other++;
    }
    const probe = await pool.request({ method: "GET", path: "/entries/flood-0/s1" });
    await probe.body.dump();
    process.stdout.write(
      `${ENTRY_KB} KB entries against the default limits (256 MiB), server under --max-old-space-size=1024:\n` +
        `  created ${counts.created} resources, then 507; RSS ${afterCreates.toFixed(0)} MB\n` +
        `  after deleting ten: ${counts.updated} updates of one of them (snapshots), then 507; RSS ${residentMegabytes(pid).toFixed(0)} MB\n` +
        `  other statuses ${counts.other}; still answering: GET ${probe.statusCode}; ` +
        `${((Date.now() - started) / 1000).toFixed(1)} s\n`,
    );
  } finally {
    await pool.close();
    child.kill();
  }
}
