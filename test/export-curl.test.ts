/**
 * The export by link with curl as the only client: fetch the list, POST the link, follow
 * the 303, read the imported contacts; a forged token exports nothing. Runs the bundled
 * reference in this process, on free ports.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { after, before, it } from "node:test";
import { promisify } from "node:util";
import { type RunningReference, startReference } from "../reference/index.ts";
import { contactsAnywhere, findExportLink, readContactList } from "../steps/export/contact-list.ts";

const run = promisify(execFile);

interface CurlReply {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/** `curl -i` without following redirects; the server runs in this process, so curl must run asynchronously. */
async function curl(...args: string[]): Promise<CurlReply> {
  const { stdout } = await run("curl", ["--silent", "--show-error", "--include", "--max-time", "10", ...args]);
  const split = stdout.indexOf("\r\n\r\n");
  const [statusLine, ...lines] = stdout.slice(0, split).split("\r\n");
  const headers = new Map(
    lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
  );
  return { status: Number(statusLine.split(" ")[1]), headers, body: stdout.slice(split + 4) };
}

let reference: RunningReference;

before(async () => {
  reference = await startReference({ host: "127.0.0.1", ports: { base: 0, contacts: 0, messaging: 0 } });
});

after(() => reference.close());

async function exportLink(): Promise<{ href: string; contacts: string[] }> {
  const reply = await curl(`${reference.urls.contacts}/user/alice/contacts`);
  assert.equal(reply.status, 200);
  const list = readContactList(reply.body);
  assert.ok(list.ok);
  const link = findExportLink(list.value.links, reference.urls.messaging, undefined);
  assert.ok(link?.href, "the list carries an export link to the messaging server");
  return { href: link.href, contacts: list.value.contacts };
}

it("a forged token gets no export", async () => {
  const { href } = await exportLink();
  const forged = href.replace(/;t=.*$/, ";t=0000.forged");
  const reply = await curl("--request", "POST", forged);
  assert.equal(reply.status, 403);
  assert.match(reply.body, /<error><message>.+<\/message><\/error>/);
  const held = await curl(`${reference.urls.messaging}/user/alice`);
  assert.equal(held.status, 404, "nothing was exported");
});

it("curl fetches the list, POSTs the link, gets 303 and reads the imported contacts at the Location", async () => {
  const { href, contacts } = await exportLink();
  const posted = await curl("--request", "POST", href);
  assert.equal(posted.status, 303);
  assert.equal(posted.headers.get("content-type"), "application/xml;charset=UTF-8");
  const location = posted.headers.get("location");
  assert.equal(location, `${reference.urls.messaging}/user/alice`);
  const result = await curl(location);
  assert.equal(result.status, 200);
  const held = contactsAnywhere(result.body);
  assert.ok(held.ok);
  assert.deepEqual(held.value, contacts);
});
