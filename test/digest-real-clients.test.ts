/**
 * Clients nobody here wrote log in to the reference: curl's --digest and Python requests'
 * HTTPDigestAuth. Both must get the resource with the demo user and fail with a wrong
 * password; requests also reuses its nonce with a growing nc, which exercises the stale
 * path of the one-time nonce policy.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { DEMO_USER } from "../reference/digest/index.ts";
import { type RunningReference, startReference } from "../reference/server.ts";

const run = promisify(execFile);

let reference: RunningReference;
let url: string;

before(async () => {
  reference = await startReference({
    host: "127.0.0.1",
    ports: { base: 0, contacts: 0, messaging: 0 },
    servers: ["base"],
  });
  url = `${reference.urls.base}/protected`;
});

after(() => reference.close());

async function curlStatus(password: string): Promise<string> {
  const { stdout } = await run("curl", [
    "--silent",
    "--digest",
    "--user",
    `${DEMO_USER.username}:${password}`,
    "--output",
    "/dev/null",
    "--write-out",
    "%{http_code}",
    url,
  ]);
  return stdout;
}

const REQUESTS_SCRIPT = `
import sys, requests
from requests.auth import HTTPDigestAuth
url, user, password = sys.argv[1:4]
session = requests.Session()
session.auth = HTTPDigestAuth(user, password)
print(" ".join(str(session.get(url).status_code) for _ in range(3)))
`;

async function hasPythonRequests(): Promise<boolean> {
  try {
    await run("python3", ["-c", "import requests"]);
    return true;
  } catch {
    return false;
  }
}

describe("real digest clients against the reference", () => {
  it("curl --digest gets the resource, and is refused with a wrong password", async () => {
    assert.equal(await curlStatus(DEMO_USER.password), "200");
    assert.equal(await curlStatus(`${DEMO_USER.password}-wrong`), "401");
  });

  it("python requests HTTPDigestAuth gets the resource three times in a session, and is refused with a wrong password", async (t) => {
    if (!(await hasPythonRequests())) {
      t.skip("python3 with the requests package is not installed: the requests client was not tried");
      return;
    }
    const statuses = async (password: string) =>
      (await run("python3", ["-c", REQUESTS_SCRIPT, url, DEMO_USER.username, password])).stdout.trim();
    assert.equal(await statuses(DEMO_USER.password), "200 200 200");
    assert.equal(await statuses(`${DEMO_USER.password}-wrong`), "401 401 401");
  });
});
