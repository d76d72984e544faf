// One server is enough (sxd test --peer): the bundled reference split in two, each half
// judged with sxd playing the other, gets the verdicts of the whole reference, less the rows
// of the side sxd played; what sxd's own contacts server saw is EXP-5's evidence; a messaging
// server that shows the contacts without asking for them, or asks for another user's, fails it.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { after, test } from "node:test";
import type { Exchange } from "../harness/evidence/exchange.ts";
import { probe } from "../harness/wire/probe.ts";
import { XML_TYPE } from "../lib/media-type.ts";
import { escapeXml } from "../lib/xml.ts";
import { SXD, sxdHere, tempDir } from "./support/cli.ts";
import { freePort } from "./support/ports.ts";

const TOKEN_KEY = "sxd-peer-test-key";
const url = (port: number) => `http://127.0.0.1:${port}`;
const started: ChildProcess[] = [];
const servers: Server[] = [];

after(() => {
  for (const child of started) child.kill();
  for (const server of servers) server.close();
});

/** One server of the reference, as a team would run its own: `sxd serve contacts|messaging …`. */
async function serveHalf(args: string[], at: string): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env, SXD_TOKEN_KEY: TOKEN_KEY };
  delete env.NODE_V8_COVERAGE;
  started.push(spawn(process.execPath, [SXD, "serve", ...args], { env, stdio: "ignore" }));
  for (let i = 0; i < 100 && (await probe(at, 1000)); i++) await new Promise((r) => setTimeout(r, 100));
}

interface Row {
  id: string;
  verdict: string;
  reason?: string;
  scenarios: { name: string; status: string; message?: string; observed?: string[]; exchanges: Exchange[] }[];
}

async function judge(args: string[], description: object) {
  const dir = tempDir();
  writeFileSync(join(dir, "target.json"), JSON.stringify({ export: { user: "alice", ...description } }));
  const reportDir = join(dir, "reports");
  // The command's code in this process (support/cli.ts sxdHere): an sxd process each would cost
  // about 2 s of CPU, mostly loading; the team's half runs as a process of its own (serveHalf).
  const finished = await sxdHere(
    ["test", ...args, "--config", join(dir, "target.json"), "--report-dir", reportDir, "--strict"],
    { SXD_TOKEN_KEY: TOKEN_KEY },
  );
  assert.notEqual(finished.code, 2, finished.stderr);
  const report = JSON.parse(readFileSync(join(reportDir, "conformance.json"), "utf8"));
  const rows = new Map<string, Row>(report.rows.filter((r: Row) => r.scenarios.length > 0).map((r: Row) => [r.id, r]));
  return { finished, report, rows, reportDir };
}

const verdicts = (rows: Map<string, Row>) => Object.fromEntries([...rows].map(([id, r]) => [id, r.verdict]));
const EXPORT_DESCRIPTION = { otherUser: "bob", upload: { method: "POST", path: "/user/{user}/contacts" } };

test("the reference's messaging server alone, sxd playing the contacts server: conformant, EXP-1 to EXP-3 not credited", {
  timeout: 120000,
}, async () => {
  const [contacts, messaging] = [await freePort(), await freePort()];
  await serveHalf(
    ["messaging", "--messaging-port", String(messaging), "--contacts-url", url(contacts)],
    url(messaging),
  );
  const peer = ["--peer", "contacts", "--peer-port", String(contacts), "--messaging-url", url(messaging)];
  const { finished, report, rows, reportDir } = await judge(peer, EXPORT_DESCRIPTION);
  assert.equal(finished.code, 0, finished.stdout);
  assert.equal(report.peer, "contacts");
  assert.match(finished.stdout, /sxd played the contacts server at http:\/\/127\.0\.0\.1:\d+/);
  const played = { verdict: "not applicable", reason: /sxd played the contacts server/ };
  for (const id of ["EXP-1", "EXP-2", "EXP-3"]) {
    assert.equal(rows.get(id)?.verdict, played.verdict, id);
    assert.match(rows.get(id)?.reason ?? "", played.reason, id);
  }
  for (const id of ["EXP-4", "EXP-5", "EXP-6", "EXP-7", "EXP-8", "EXP-9"])
    assert.equal(rows.get(id)?.verdict, "passed", id);
  // The backend request sxd's contacts server received is in EXP-5's transcript.
  const must = rows.get("EXP-5")?.scenarios.find((s) => s.exchanges.some((e) => e.note?.includes("backend request")));
  const backend = must?.exchanges.at(-1);
  assert.equal(backend?.url, `${url(contacts)}/user/alice/contacts`);
  assert.equal(backend?.response?.status, 200);
  // Each says what it observed: the backend request received, the outage sxd staged itself.
  const observed = (id: string) => rows.get(id)?.scenarios.flatMap((s) => s.observed ?? []) ?? [];
  assert.ok(
    observed("EXP-5").some((o) => /received GET \/user\/alice\/contacts for user alice .*answered 200/.test(o)),
    observed("EXP-5").join("\n"),
  );
  assert.ok(
    observed("EXP-8").some((o) => o.startsWith("sxd stopped its own contacts server")),
    observed("EXP-8").join("\n"),
  );
  const html = readFileSync(join(reportDir, "conformance.html"), "utf8");
  assert.match(html, /sxd played the contacts server \(--peer\)/);
  assert.match(html, /observed: sxd stopped its own contacts server/);
});

test("the reference's contacts server alone, sxd playing the messaging server: conformant, EXP-4 not credited", {
  timeout: 120000,
}, async () => {
  const [contacts, messaging] = [await freePort(), await freePort()];
  const backend = "/internal/export/{user}?t={token}";
  const rel = "https://team.example/rels/export";
  const args = [
    ...["--contacts-port", String(contacts), "--messaging-url", url(messaging)],
    ...["--backend-path", backend, "--export-rel", rel],
  ];
  await serveHalf(["contacts", ...args], url(contacts));
  const peer = ["--peer", "messaging", "--peer-port", String(messaging), "--contacts-url", url(contacts)];
  const har = join(tempDir(), "run.har");
  const { finished, report, rows } = await judge([...peer, "--har", har], {
    ...EXPORT_DESCRIPTION,
    rel,
    backend: { path: backend },
  });
  assert.equal(finished.code, 0, finished.stdout);
  assert.equal(report.peer, "messaging");
  // The backend request sxd's messaging server sent, with the link's token, and the list it got, right after the POST.
  const [must] = rows.get("EXP-5")?.scenarios ?? [];
  const at = must?.exchanges.findIndex((e) => e.note?.startsWith("sent by sxd's messaging server")) ?? -1;
  const sent = must?.exchanges[at];
  const post = must?.exchanges[at - 1];
  assert.match(sent?.url ?? "", new RegExp(`^${url(contacts)}/internal/export/alice\\?t=.+`), JSON.stringify(must));
  assert.equal(post?.method, "POST");
  assert.equal(sent?.url.split("?t=")[1], post?.url.split(";t=")[1]);
  assert.equal(sent?.response?.status, 200);
  assert.match(sent?.response?.body ?? "", /<contact>/);
  const entries = JSON.parse(readFileSync(har, "utf8")).log.entries as { comment?: string; request: { url: string } }[];
  assert.ok(
    entries.some((e) => e.request.url === sent?.url && e.comment?.startsWith("sent by sxd's messaging server")),
  );
  // Where the team's contacts server refuses a token (EXP-6), the refusal it sent back is shown too.
  const refused = rows
    .get("EXP-6")
    ?.scenarios.flatMap((s) => s.exchanges)
    .filter((e) => e.note?.startsWith("sent by"));
  assert.ok(
    refused?.some((e) => e.response?.status === 403),
    JSON.stringify(refused),
  );
  assert.deepEqual(verdicts(rows), {
    "EXP-1": "passed",
    "EXP-2": "passed",
    "EXP-3": "passed",
    "EXP-4": "not applicable",
    "EXP-5": "passed",
    "EXP-6": "passed",
    "EXP-7": "not applicable",
    "EXP-8": "not applicable",
    "EXP-9": "not applicable",
    // The reference's token changes with its expiry, once a second, not on each read.
    "EXP-10": "not applicable",
  });
  // Without the token in the backend request, the team's contacts server cannot be judged on it.
  const silent = await judge(peer, { ...EXPORT_DESCRIPTION, rel });
  assert.equal(silent.rows.get("EXP-6")?.verdict, "not run");
  assert.match(silent.rows.get("EXP-6")?.reason ?? "", /state export\.backend with \{token\}/);
});

/**
 * A messaging server of the test's own that answers the export as the spec says and shows
 * alice's contacts afterwards, but asks the contacts server for `asks` (no one: never).
 */
async function showingMessagingServer(contactsUrl: () => string, asks: string | undefined): Promise<string> {
  const fixture = JSON.parse(readFileSync(new URL("../reference/export/contacts.json", import.meta.url), "utf8"));
  const contacts = (fixture.alice as Record<string, string>[])
    .map(
      (c) =>
        `<contact>${Object.entries(c)
          .map(([k, v]) => `<${k}>${escapeXml(v)}</${k}>`)
          .join("")}</contact>`,
    )
    .join("");
  const server = createServer(async (request, response) => {
    const path = request.url ?? "";
    if (request.method === "POST" && path.startsWith("/user/alice/import;t=")) {
      if (asks) await fetch(`${contactsUrl()}/user/${asks}/contacts`).then((r) => r.text());
      response.writeHead(303, { location: `${base}/user/alice`, "content-type": XML_TYPE }).end("<exported/>");
    } else if (request.method === "GET" && path === "/user/alice") {
      response.writeHead(200, { "content-type": XML_TYPE }).end(`<contacts>${contacts}</contacts>`);
    } else response.writeHead(404, { "content-type": XML_TYPE }).end("<error><message>no</message></error>");
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = url((server.address() as AddressInfo).port);
  return base;
}

test("a messaging server that shows the contacts without asking sxd's contacts server, or asks for another user, fails EXP-5", {
  timeout: 120000,
}, async () => {
  for (const [asks, seen] of [
    [undefined, /but got no backend request at all/],
    ["bob", /but got GET \/user\/bob\/contacts \(user bob, token none\)/],
  ] as const) {
    const contacts = await freePort();
    const messaging = await showingMessagingServer(() => url(contacts), asks);
    const peer = ["--peer", "contacts", "--peer-port", String(contacts), "--messaging-url", messaging];
    const { finished, rows } = await judge([...peer, "--tags", "@EXP-5 and @must"], {});
    assert.equal(finished.code, 1, finished.stdout);
    assert.equal(rows.get("EXP-5")?.verdict, "failed");
    const [must] = rows.get("EXP-5")?.scenarios ?? [];
    assert.match(must?.message ?? "", /expected a backend request at sxd's contacts server .* for user alice/);
    assert.match(must?.message ?? "", seen);
  }
});
