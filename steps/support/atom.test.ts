import assert from "node:assert/strict";
import { test } from "node:test";
import { isAbsoluteUri } from "../../lib/uri.ts";
import { linksByRel, readEntry, sameUri } from "./atom.ts";

const ENTRY = `<x:entry xmlns:x="http://www.w3.org/2005/Atom" xml:lang="fr">
  <x:id>urn:uuid:1</x:id><x:title>007</x:title><x:author><x:name>Ada</x:name></x:author>
  <x:content type="html">&lt;b&gt;hi&lt;/b&gt;</x:content>
  <x:link rel="self" href="http://h:8080/entries/a/s2"/>
  <x:link rel="previous" href="s1"/>
  <x:link rel="next" href="/entries/a"/>
  <x:link href="http://h:8080/alt"/>
</x:entry>`;

test("fields are read through any prefix, with inherited xml:lang", () => {
  const read = readEntry(ENTRY, "http://h:8080/entries/a/s2");
  assert.ok(read.ok);
  assert.equal(read.entry.id, "urn:uuid:1");
  assert.equal(read.entry.title, "007");
  assert.equal(read.entry.authorName, "Ada");
  assert.deepEqual(read.entry.content, {
    text: "<b>hi</b>",
    type: "html",
    lang: "fr",
    hasMarkup: false,
    src: undefined,
  });
});

test("links resolve against the entry's address and say whether they were absolute", () => {
  const read = readEntry(ENTRY, "http://h:8080/entries/a/s2");
  assert.ok(read.ok);
  assert.deepEqual(
    read.entry.links.map((l) => [l.rel, l.url, l.absolute]),
    [
      ["self", "http://h:8080/entries/a/s2", true],
      ["previous", "http://h:8080/entries/a/s1", false],
      ["next", "http://h:8080/entries/a", false],
      ["alternate", "http://h:8080/alt", true],
    ],
  );
  assert.equal(linksByRel(read.entry, "next").length, 1);
});

test("a body that is not an Atom entry is reported", () => {
  assert.equal(readEntry("<entry/>", "http://h/").ok, false);
  assert.equal(readEntry("not xml", "http://h/").ok, false);
});

test("absolute URIs have a scheme; network-path and path references do not count", () => {
  assert.ok(isAbsoluteUri("http://h/x"));
  assert.ok(isAbsoluteUri("urn:uuid:1"));
  assert.ok(!isAbsoluteUri("//h/x"));
  assert.ok(!isAbsoluteUri("/x"));
  assert.ok(!isAbsoluteUri("s1"));
});

test("URIs are compared after normalisation", () => {
  assert.ok(sameUri("HTTP://H:80/entries/a/./s1", "http://h/entries/a/s1"));
  assert.ok(!sameUri("http://h/entries/a/s1", "http://h/entries/a/s2"));
  assert.ok(!sameUri(undefined, "http://h/"));
});
