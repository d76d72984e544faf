import assert from "node:assert/strict";
import { test } from "node:test";
import {
  ATOM_NS,
  attribute,
  childElement,
  errorDocument,
  escapeXml,
  parseXml,
  XML_NS,
  xmlCharactersOnly,
} from "./xml.ts";

test("elements are resolved by namespace, whatever the prefix", () => {
  for (const text of [
    `<entry xmlns="${ATOM_NS}"><title>t</title></entry>`,
    `<a:entry xmlns:a="${ATOM_NS}"><a:title>t</a:title></a:entry>`,
  ]) {
    const parsed = parseXml(text);
    assert.ok(parsed.ok);
    assert.equal(parsed.root.ns, ATOM_NS);
    assert.equal(childElement(parsed.root, ATOM_NS, "title")?.text, "t");
  }
  const wrong = parseXml(`<entry xmlns="urn:other"><title>t</title></entry>`);
  assert.ok(wrong.ok);
  assert.equal(childElement(wrong.root, ATOM_NS, "title"), undefined);
});

test("text is kept as written; predefined entities and character references are decoded", () => {
  const parsed = parseXml(`<x xml:lang="en" n="007">007 &amp; &#x41;&#66; &lt;p&gt;</x>`);
  assert.ok(parsed.ok);
  assert.equal(parsed.root.text, "007 & AB <p>");
  assert.equal(attribute(parsed.root, "n"), "007");
  assert.equal(attribute(parsed.root, "lang", XML_NS), "en");
});

test("unsafe or broken documents are refused with a reason", () => {
  for (const text of [
    `<!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>`,
    "<x>&custom;</x>",
    "<x><y></x>",
    "<p:x/>",
    "<x/><y/>",
    "",
  ]) {
    const parsed = parseXml(text);
    assert.equal(parsed.ok, false, text);
  }
});

test("the error document escapes its message", () => {
  const parsed = parseXml(errorDocument("a < b & c"));
  assert.ok(parsed.ok);
  assert.equal(childElement(parsed.root, undefined, "message")?.text, "a < b & c");
});

test("characters XML forbids are refused, written out or as references; a lone surrogate too", () => {
  const forbidden = ["&#0;", "\u0001", "&#x1B;", "\uFFFE", "&#xFFFF;", "\uD800", "&#xD800;", "&#x110000;"];
  for (const bad of forbidden) {
    const parsed = parseXml(`<x>a${bad}b</x>`);
    assert.equal(parsed.ok, false, JSON.stringify(bad));
    const inAttribute = parseXml(`<x a="${bad}"/>`);
    assert.equal(inAttribute.ok, false, JSON.stringify(bad));
  }
  const allowed = parseXml("<x>tab\t &#x9; &#xD7FF; &#x1F600; \u{1F600} \uFFFD</x>");
  assert.ok(allowed.ok);
  assert.equal(allowed.root.text, "tab\t \t \uD7FF \u{1F600} \u{1F600} \uFFFD");
});

test("characters XML cannot carry are shown as U+FFFD, the rest kept", () => {
  assert.equal(xmlCharactersOnly("a\u0000b\u001Bc\uFFFEd\uD800e\tf😀"), "a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\tf😀");
});

test("escapeXml keeps a carriage return by its number, which a reader would turn into a line feed", () => {
  assert.equal(escapeXml(`a\r\nb<&>"'`), "a&#13;\nb&lt;&amp;&gt;&quot;&apos;");
});
