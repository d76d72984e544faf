// The snapshot routes in process (no socket), over thousands of generated requests a run
// (fast-check): never a 5xx, and what a PUT stored reads back as it was sent.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { ATOM_ENTRY_TYPE } from "../../lib/media-type.ts";
import { escapeXml } from "../../lib/xml.ts";
import type { ReferenceContext } from "../context.ts";
import type { Reply } from "../http/reply.ts";
import { dispatch } from "../http/serve.ts";
import { parseEntry } from "./entry.ts";
import { snapshotRoutes } from "./routes.ts";

const RUNS = 2000;
const context: ReferenceContext = {
  urls: { base: "http://ref.test", contacts: "", messaging: "" },
  faults: new Set(),
  variant: "standard",
};

function server() {
  const routes = [snapshotRoutes(context)];
  return (method: string, path: string, headers: Record<string, string> = {}, body = ""): Promise<Reply> =>
    dispatch(routes, { method, path, target: path, headers, body: async () => Buffer.from(body) });
}

/** Characters XML 1.0 allows (§2.2), weighted toward the ones with a meaning in markup or line ends. */
const xmlChar = fc.oneof(
  fc.constantFrom("\t", "\n", "\r", "\r\n", " ", "<", ">", "&", '"', "'", "]]>", "\u0085", "\u2028"),
  fc.integer({ min: 0x20, max: 0xd7ff }).map((c) => String.fromCodePoint(c)),
  fc.integer({ min: 0x10000, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
);
const text = fc.string({ unit: xmlChar, maxLength: 24 });
/** A client may escape any character by its number, white space included (which then survives as it is). */
const byNumber = (value: string) => value.replace(/[<>&"'\t\n\r]/g, (c) => `&#${c.charCodeAt(0)};`);
const fields = fc.record({
  title: text,
  author: text,
  content: text,
  type: fc.constantFrom("text", "html"),
  lang: fc.option(text, { nil: undefined }),
  escape: fc.constantFrom(escapeXml, byNumber),
});
const entryOf = (f: {
  title: string;
  author: string;
  content: string;
  type: string;
  lang?: string;
  escape: (v: string) => string;
}) =>
  `<entry xmlns="http://www.w3.org/2005/Atom"><id>urn:uuid:1</id><title>${f.escape(f.title)}</title><author><name>${f.escape(f.author)}</name></author><content type="${f.type}"${f.lang === undefined ? "" : ` xml:lang="${f.escape(f.lang)}"`}>${f.escape(f.content)}</content></entry>`;
const splice = fc.string({ unit: fc.oneof(xmlChar, fc.string({ unit: "binary", maxLength: 2 })), maxLength: 12 });
const damaged = fc.tuple(fields.map(entryOf), fc.nat(), fc.nat(), splice).map(([entry, at, length, inserted]) => {
  const start = at % (entry.length + 1);
  return entry.slice(0, start) + inserted + entry.slice(start + (length % 8));
});
const headerValue = fc.oneof(
  fc.constantFrom(ATOM_ENTRY_TYPE, "application/atom+xml", "*", '"x"', "Thu, 01 Jan 2026 00:00:00 GMT"),
  fc.string({ unit: "grapheme-ascii", maxLength: 30 }),
);

test("an entry stored by a PUT reads back as it was sent, whatever characters its text holds", async () => {
  const send = server();
  let created = 0;
  await fc.assert(
    fc.asyncProperty(fields, async (f) => {
      const path = `/entries/r${created++}`;
      const body = entryOf(f);
      const put = await send("PUT", path, { "content-type": ATOM_ENTRY_TYPE, "if-none-match": "*" }, body);
      assert.equal(put.status, 201, String(put.body));
      const sent = parseEntry(body);
      const read = parseEntry(String((await send("GET", path)).body));
      assert.ok(sent.ok && read.ok);
      assert.deepEqual(read.entry, sent.entry);
    }),
    // Two requests, a parse and a serialisation a run.
    { numRuns: RUNS / 2 },
  );
});

test("no PUT or GET, however malformed its path, headers or body, gets a 5xx; a stored body always reads back", async () => {
  const send = server();
  const path = fc.oneof(
    fc.constantFrom("/entries/a", "/entries/a/s1", "/entries/b"),
    fc.string({ unit: "grapheme-ascii", maxLength: 12 }).map((tail) => `/entries/${tail}`),
  );
  const headers = fc.dictionary(
    fc.constantFrom("content-type", "if-match", "if-none-match", "if-unmodified-since"),
    headerValue,
  );
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom("PUT", "GET", "HEAD", "DELETE", "POST"),
      path,
      headers,
      fc.oneof(damaged, fields.map(entryOf)),
      async (method, target, sent, body) => {
        const reply = await send(method, target, sent, body);
        assert.ok(reply.status < 500, `${method} ${target} ${JSON.stringify(sent)}: ${reply.status} ${reply.body}`);
        if (method === "PUT" && reply.status < 300) {
          const read = await send("GET", target);
          assert.equal(read.status, 200);
          assert.ok(parseEntry(String(read.body)).ok, String(read.body));
        }
      },
    ),
    { numRuns: RUNS },
  );
});
