/**
 * Digest clients nobody here wrote log in to the reference, each with the `sxd serve` settings
 * docs/serve.md names for it: curl --digest (a users file of MD5 lines, and one of SHA-256
 * lines), Python requests' HTTPDigestAuth (which also reuses its nonce with a growing nc, the
 * stale path of one-time nonces), wget (qop auth only) and Python's urllib (MD5 offered
 * first), and curl behind a proxy that strips a path prefix. Each gets 200 after the 401 and
 * is refused with a wrong password. A client the machine lacks is skipped with a message
 * (scripts/setup-digest-clients.sh installs them on CI).
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer, request as forward, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, describe, it, type TestContext } from "node:test";
import { promisify } from "node:util";
import { hashA1 } from "../lib/digest-math.ts";
import { DEMO_USER, REALM, type ReferenceOptions, type RunningReference, startReference } from "../reference/index.ts";
import { tempDir } from "./support/cli.ts";
import { PYTHON } from "./support/real-clients.ts";

const run = promisify(execFile);
const PASSWORD = "alice-secret";

type Client = (url: string, user: string, password: string) => Promise<string>;

async function exitOf(command: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  try {
    return await run(command, args);
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; code?: unknown };
    if (failed.code === "ENOENT") throw error;
    return { stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

const curl: Client = async (url, user, password) =>
  (
    await exitOf("curl", [
      "--silent",
      "--digest",
      "--user",
      `${user}:${password}`,
      "--output",
      "/dev/null",
      "--write-out",
      "%{http_code}",
      url,
    ])
  ).stdout;

/** wget prints every reply's status line with --server-response; the last one is the outcome. */
const wget: Client = async (url, user, password) => {
  const { stderr } = await exitOf("wget", [
    "--server-response",
    "--output-document=/dev/null",
    "--tries=1",
    `--user=${user}`,
    `--password=${password}`,
    url,
  ]);
  return [...stderr.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => m[1]).join(" ");
};

const REQUESTS_SCRIPT = `
import sys, requests
from requests.auth import HTTPDigestAuth
url, user, password = sys.argv[1:4]
session = requests.Session()
session.auth = HTTPDigestAuth(user, password)
print(" ".join(str(session.get(url).status_code) for _ in range(3)))
`;

const URLLIB_SCRIPT = `
import sys, urllib.request, urllib.error
url, user, password = sys.argv[1:4]
passwords = urllib.request.HTTPPasswordMgrWithDefaultRealm()
passwords.add_password(None, url, user, password)
opener = urllib.request.build_opener(urllib.request.HTTPDigestAuthHandler(passwords))
try:
    print(opener.open(url).status)
except urllib.error.HTTPError as error:
    print(error.code)
`;

const python =
  (script: string): Client =>
  async (url, user, password) =>
    (await exitOf(PYTHON, ["-c", script, url, user, password])).stdout.trim();

/** Why a client cannot be tried here, or undefined when it can. */
async function missing(probe: string[]): Promise<string | undefined> {
  try {
    await run(probe[0], probe.slice(1));
    return undefined;
  } catch {
    return `${probe.join(" ")} failed: the client is not installed here (scripts/setup-digest-clients.sh installs it)`;
  }
}

function usersFile(lines: string[]): string {
  const file = `${tempDir()}/users.htdigest`;
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

const md5Line = `alice:${REALM}:${hashA1("MD5", "alice", REALM, PASSWORD)}`;
const sha256Line = `alice:${REALM}:${hashA1("SHA-256", "alice", REALM, PASSWORD)}`;

/** A reverse proxy that serves the base server under /api, stripping the prefix as it forwards. */
async function prefixProxy(upstream: () => string): Promise<{ url: string; server: Server }> {
  const server = createServer((incoming, outgoing) => {
    const path = (incoming.url ?? "/").replace(/^\/api(?=\/|$)/, "") || "/";
    const upstreamRequest = forward(
      `${upstream()}${path}`,
      { method: incoming.method, headers: incoming.headers },
      (reply) => {
        outgoing.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(outgoing);
      },
    );
    incoming.pipe(upstreamRequest);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`, server };
}

interface Case {
  name: string;
  probe: string[];
  client: Client;
  /** The `sxd serve` settings docs/serve.md names for this client. */
  settings: () => Partial<ReferenceOptions>;
  user: string;
  password: string;
  granted: string;
  refused: string;
  behindProxy?: boolean;
}

const CURL = ["curl", "--version"];
const REQUESTS = [PYTHON, "-c", "import requests"];
/** The demo user, the default settings, one GET. */
const DEMO = {
  user: DEMO_USER.username,
  password: DEMO_USER.password,
  settings: () => ({}),
  granted: "200",
  refused: "401",
};
const ALICE = { ...DEMO, user: "alice", password: PASSWORD };

const curlDefault: Case = {
  ...DEMO,
  name: "curl --digest, the default settings (SHA-256 first)",
  probe: CURL,
  client: curl,
};
const requestsDefault: Case = {
  ...DEMO,
  name: "python requests HTTPDigestAuth, three GETs in a session, the default settings",
  probe: REQUESTS,
  client: python(REQUESTS_SCRIPT),
  granted: "200 200 200",
  refused: "401 401 401",
};

const cases: Case[] = [
  {
    ...ALICE,
    name: "curl --digest, htdigest users file of MD5 lines (MD5 alone offered)",
    probe: CURL,
    client: curl,
    settings: () => ({ digestUsersFile: usersFile([md5Line]) }),
  },
  {
    ...ALICE,
    name: "curl --digest, users file of SHA-256 lines (SHA-256 alone offered)",
    probe: CURL,
    client: curl,
    settings: () => ({ digestUsersFile: usersFile([sha256Line]) }),
  },
  curlDefault,
  requestsDefault,
  {
    ...DEMO,
    name: "wget, --digest-qop auth",
    probe: ["wget", "--version"],
    client: wget,
    settings: () => ({ digestQops: ["auth"] }),
    granted: "401 200",
    refused: "401 401",
  },
  {
    ...DEMO,
    name: "python urllib HTTPDigestAuthHandler, --digest-algorithms MD5",
    probe: [PYTHON, "--version"],
    client: python(URLLIB_SCRIPT),
    settings: () => ({ digestHashes: ["MD5"] }),
  },
  ...[curlDefault, requestsDefault].map((c) => ({
    ...c,
    name: `${c.name}, behind a proxy that strips the path prefix /api (--public-url)`,
    behindProxy: true,
  })),
];

const running: RunningReference[] = [];
const proxies: Server[] = [];
after(async () => {
  for (const proxy of proxies) proxy.close();
  await Promise.all(running.map((reference) => reference.close()));
});

async function serve(c: Case): Promise<string> {
  let upstream = "";
  const proxy = c.behindProxy ? await prefixProxy(() => upstream) : undefined;
  if (proxy) proxies.push(proxy.server);
  const reference = await startReference({
    host: "127.0.0.1",
    ports: { base: 0, contacts: 0, messaging: 0 },
    servers: ["base"],
    publicUrls: proxy ? { base: proxy.url } : undefined,
    ...c.settings(),
  });
  running.push(reference);
  if (!proxy) return `${reference.urls.base}/protected`;
  upstream = reference.boundUrls.base ?? "";
  return `${proxy.url}/protected`;
}

describe("real digest clients against the reference", () => {
  for (const c of cases) {
    it(`${c.name}: 200 after the 401, 401 with a wrong password`, async (t: TestContext) => {
      const absent = await missing(c.probe);
      if (absent) {
        t.skip(absent);
        return;
      }
      const url = await serve(c);
      assert.equal(await c.client(url, c.user, c.password), c.granted);
      assert.equal(await c.client(url, c.user, `${c.password}-wrong`), c.refused);
    });
  }
});
