// npm run bench -- snapshots: does serving a snapshot resource get slower as its chain grows?
// Each operation is timed on a short chain and on a long one, through the reference's
// HTTP handler without sockets, and the ratio long/short is printed (about 1 is the goal:
// no operation walks the chain). Prints ratios, asserts nothing: timing is for people.
import { ATOM_ENTRY_TYPE } from "../../lib/media-type.ts";
import type { ReferenceContext } from "../../reference/context.ts";
import type { Reply, ServerRequest } from "../../reference/http/reply.ts";
import { dispatch } from "../../reference/http/serve.ts";
import { COLLECTION } from "../../reference/snapshots/chain.ts";
import { snapshotRoutes } from "../../reference/snapshots/routes.ts";

const SHORT = 10;
const LONG = 5000;
const REPEAT = 2000;

const context: ReferenceContext = {
  urls: { base: "http://bench.invalid", contacts: "", messaging: "" },
  faults: new Set(),
  variant: "standard",
};
const routes = [snapshotRoutes(context)];

function request(method: string, path: string, headers: Record<string, string> = {}, body = ""): ServerRequest {
  return { method, target: path, path, headers, body: async () => Buffer.from(body) };
}

function entry(version: number): string {
  return `<entry xmlns="http://www.w3.org/2005/Atom"><author><name>bench</name></author><title>v${version}</title>
<id>urn:uuid:00000000-0000-4000-8000-000000000001</id><content type="html" xml:lang="en">version ${version}</content></entry>`;
}

async function send(req: ServerRequest): Promise<Reply> {
  const reply = await dispatch(routes, req);
  if (reply.status >= 400) throw new Error(`${req.method} ${req.path}: ${reply.status} ${reply.body}`);
  return reply;
}

async function update(path: string, version: number): Promise<void> {
  const current = await send(request("GET", path));
  const etag = String(current.headers?.etag);
  await send(request("PUT", path, { "content-type": ATOM_ENTRY_TYPE, "if-match": etag }, entry(version)));
}

async function chain(name: string, length: number): Promise<string> {
  const path = `${COLLECTION}${name}`;
  await send(request("PUT", path, { "content-type": ATOM_ENTRY_TYPE, "if-none-match": "*" }, entry(0)));
  for (let v = 1; v <= length; v++) await update(path, v);
  return path;
}

/** The median of five batches, so one garbage collection does not decide the ratio. */
async function timeIt(label: string, times: number, op: (i: number) => Promise<unknown>): Promise<number> {
  const batches: number[] = [];
  let i = 0;
  for (let batch = 0; batch < 5; batch++) {
    const started = process.hrtime.bigint();
    for (let k = 0; k < times / 5; k++) await op(i++);
    batches.push(Number(process.hrtime.bigint() - started) / (times / 5) / 1000);
  }
  const perOp = batches.sort((a, b) => a - b)[2];
  if (label) process.stdout.write(`  ${label.padEnd(34)} ${perOp.toFixed(1).padStart(8)} µs/op\n`);
  return perOp;
}

let run = 0;
async function measure(length: number, quiet = false) {
  run++;
  if (!quiet) process.stdout.write(`chain of ${length} snapshots:\n`);
  const say = (label: string) => (quiet ? "" : label);
  const path = await chain(`bench-${run}`, length);
  const oldest = await timeIt(say("GET oldest snapshot s1"), REPEAT, () => send(request("GET", `${path}/s1`)));
  const newest = await timeIt(say(`GET newest snapshot s${length}`), REPEAT, () =>
    send(request("GET", `${path}/s${length}`)),
  );
  const current = await timeIt(say("GET current"), REPEAT, () => send(request("GET", path)));
  const put = await timeIt(say("GET + PUT (one more snapshot)"), REPEAT / 4, (i) => update(path, length + i + 1));
  const victims: string[] = [];
  for (let i = 0; i < 50; i++) victims.push(await chain(`victim-${run}-${i}`, Math.min(length, 1000)));
  const del = await timeIt(say(`DELETE with ${Math.min(length, 1000)} snapshots`), victims.length, (i) =>
    send(request("DELETE", victims[i])),
  );
  return { oldest, newest, current, put, del };
}

export async function benchSnapshots(): Promise<void> {
  await measure(SHORT, true); // warm-up: let the JIT settle before anything counts
  const short = await measure(SHORT);
  const long = await measure(LONG);
  process.stdout.write(`\nratio long/short (about 1 means no slowdown as the chain grows):\n`);
  for (const key of Object.keys(short) as (keyof typeof short)[]) {
    process.stdout.write(`  ${key.padEnd(10)} ${(long[key] / short[key]).toFixed(2)}\n`);
  }
}
