import assert from "node:assert/strict";
import { test } from "node:test";
import { readAtomEntry } from "../../lib/atom.ts";
import { parseEntry, serialiseEntry } from "./entry.ts";

const PREFIXED = `<?xml version="1.0"?>
<a:entry xmlns:a="http://www.w3.org/2005/Atom">
  <a:author><a:name>Ada</a:name></a:author>
  <a:title>007 &amp; more</a:title>
  <a:id> urn:uuid:0b5a2e52-1a55-4a39-9c39-5b1cc7e0a001 </a:id>
  <a:content type="html" xml:lang="de">&lt;p&gt;Hallo&lt;/p&gt;</a:content>
</a:entry>`;

test("an entry with any Atom prefix is read, text kept as written", () => {
  const parsed = parseEntry(PREFIXED);
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.entry, {
    id: "urn:uuid:0b5a2e52-1a55-4a39-9c39-5b1cc7e0a001",
    title: "007 & more",
    authorName: "Ada",
    content: { text: "<p>Hallo</p>", type: "html", lang: "de" },
  });
});

test("an entry missing required fields is refused, naming them", () => {
  const parsed = parseEntry('<entry xmlns="http://www.w3.org/2005/Atom"><title>t</title></entry>');
  assert.ok(!parsed.ok);
  assert.match(parsed.error, /id, author\/name, content/);
});

test("non-Atom roots, DOCTYPEs, xhtml and out-of-line content are refused", () => {
  for (const text of [
    "<entry><title>t</title></entry>",
    '<!DOCTYPE entry [<!ENTITY x "y">]><entry xmlns="http://www.w3.org/2005/Atom"/>',
    PREFIXED.replace('type="html"', 'type="xhtml"'),
    PREFIXED.replace('type="html"', 'src="http://example.com/x"'),
    "<entry",
  ]) {
    assert.equal(parseEntry(text).ok, false, text);
  }
});

test("a serialised entry reads back with its fields and absolute links", () => {
  const parsed = parseEntry(PREFIXED);
  assert.ok(parsed.ok);
  const links = { self: "http://h/entries/a/s1", previous: undefined, next: "http://h/entries/a" };
  const text = serialiseEntry(parsed.entry, links, new Date(Date.UTC(2026, 0, 2, 3, 4, 5)));
  const again = parseEntry(text);
  assert.ok(again.ok);
  assert.deepEqual(again.entry, parsed.entry);
  const read = readAtomEntry(text);
  assert.ok(read.ok);
  assert.deepEqual(read.entry.links, [
    { rel: "self", href: "http://h/entries/a/s1" },
    { rel: "next", href: "http://h/entries/a" },
  ]);
  assert.equal(read.entry.updated, "2026-01-02T03:04:05Z");
});
