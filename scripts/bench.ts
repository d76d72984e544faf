// npm run bench [-- section ...]: the reference's performance, printed for people (nothing is
// asserted: timing depends on the machine). Sections: snapshots (does a long chain slow
// anything down?), digest (requests/s against a bare node:http server and Apache httpd),
// network (the suite over a 50 ms round trip at several --parallel values), storage (a flood
// of PUTs against the default limits under a 1 GiB heap), gateway (the suite behind a
// rate-limiting proxy of 10 and of 30 requests a second, at the pace sxd finds), lockout (the
// suite through a gateway that locks sxd out for 2 s after five failed logins, against the same
// without), clients (sxd
// test-client on a slow-starting client, one run at a time against the default runs at once),
// interop (`sxd interop` on 4 clients by 4 servers, one cell at a time against the default
// cells at once), store (what recording a run adds to sxd test, sxd history over 10,000 runs, a
// stored run's size). Default: all.
import { spawnSync } from "node:child_process";
import { cpus } from "node:os";

// Each section loads only what it needs when it runs: the gateway section's cucumber, loaded
// in this process (where the network section's reference and proxies run), made that section's
// runs at --parallel 8 take about 12.5 s instead of about 9.
const SECTIONS: Record<string, () => Promise<void>> = {
  snapshots: async () => (await import("./bench/snapshots.ts")).benchSnapshots(),
  digest: async () => (await import("./bench/digest.ts")).benchDigest(),
  network: async () => (await import("./bench/network.ts")).benchNetwork(),
  storage: async () => (await import("./bench/storage.ts")).benchStorage(),
  gateway: async () => (await import("./bench/gateway.ts")).benchGateway(),
  lockout: async () => (await import("./bench/gateway.ts")).benchLockout(),
  clients: async () => (await import("./bench/clients.ts")).benchClients(),
  interop: async () => (await import("./bench/interop.ts")).benchInterop(),
  store: async () => (await import("./bench/store.ts")).benchStore(),
};

const asked = process.argv.slice(2);
const unknown = asked.find((name) => !(name in SECTIONS));
if (unknown !== undefined) {
  process.stderr.write(`bench: unknown section "${unknown}"; sections: ${Object.keys(SECTIONS).join(", ")}\n`);
  process.exit(2);
}
// The sections that start sxd (bin/sxd.js) measure the compiled code users install: build it
// now, so that they never measure the TypeScript through tsx because dist/ was stale.
const build = spawnSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);
process.stdout.write(`${cpus().length} cores, node ${process.version}\n`);
for (const name of asked.length > 0 ? asked : Object.keys(SECTIONS)) {
  process.stdout.write(`\n== ${name} ==\n`);
  await SECTIONS[name]();
}
