import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAbsoluteUri } from "../../lib/uri.ts";
import {
  contactsAnywhere,
  countOccurrences,
  describeMissing,
  findExportLink,
  importToken,
  readContactList,
} from "./contact-list.ts";

const PREFIXED = `<?xml version="1.0"?>
<!-- a comment first -->
<contacts xmlns:atom="http://www.w3.org/2005/Atom">
  <atom:link rel="self" href="http://c.test/user/alice/contacts"/>
  <atom:link rel="http://rel.test/export" href="http://m.test/user/alice/import;t=abc" title="Export"/>
  <link rel="http://rel.test/not-atom" href="http://m.test/elsewhere"/>
  <contact><name>Bob</name><email>bob@example.org</email></contact>
  <contact><name>Carol</name></contact>
</contacts>`;

const DEFAULT_NS = `<contacts xmlns="http://www.w3.org/2005/Atom">
  <link rel="self" href="http://c.test/user/alice/contacts"/>
  <contact><name>Bob</name></contact>
</contacts>`;

describe("readContactList", () => {
  it("reads atom:link children and contacts of a prefixed document", () => {
    const list = readContactList(PREFIXED);
    assert.ok(list.ok);
    assert.equal(list.value.declaresAtom, true);
    assert.equal(list.value.links.length, 2, "a link outside the Atom namespace is not an atom:link");
    assert.equal(list.value.contacts.length, 2);
  });

  it("reads a document in the Atom default namespace", () => {
    const list = readContactList(DEFAULT_NS);
    assert.ok(list.ok);
    assert.equal(list.value.declaresAtom, true);
    assert.equal(list.value.links[0].rel, "self");
    assert.equal(list.value.contacts.length, 1);
  });

  it("notices a root that does not declare the Atom namespace", () => {
    const list = readContactList('<contacts><a:link xmlns:a="http://www.w3.org/2005/Atom" rel="self"/></contacts>');
    assert.ok(list.ok);
    assert.equal(list.value.declaresAtom, false);
  });

  it("says what came instead of a contact list", () => {
    assert.deepEqual(readContactList("<feed/>"), { ok: false, error: "a root element feed" });
    assert.equal(readContactList("{}").ok, false);
  });
});

describe("findExportLink", () => {
  const list = readContactList(PREFIXED);
  assert.ok(list.ok);
  const links = list.value.links;

  it("takes the relation of the target description when given", () => {
    assert.equal(findExportLink(links, "http://m.test", "http://rel.test/export")?.title, "Export");
    assert.equal(findExportLink(links, "http://m.test", "urn:other"), undefined);
  });

  it("otherwise takes the link with a URI relation pointing at the messaging server", () => {
    assert.equal(findExportLink(links, "http://m.test", undefined)?.rel, "http://rel.test/export");
    assert.equal(findExportLink(links, "http://m.test:81", undefined), undefined);
  });
});

describe("importToken", () => {
  it("takes the token of a well-formed import href", () => {
    assert.deepEqual(importToken("http://m.test/user/alice/import;t=abc", "http://m.test/", "alice"), {
      ok: true,
      value: "abc",
    });
  });

  for (const href of [
    "/user/alice/import;t=abc",
    "http://other.test/user/alice/import;t=abc",
    "http://m.test/user/bob/import;t=abc",
    "http://m.test/user/alice/import?t=abc",
    "http://m.test/user/alice/import;t=",
    "http://m.test/user/alice/import;t=a/b",
  ]) {
    it(`refuses ${href}`, () => assert.equal(importToken(href, "http://m.test", "alice").ok, false));
  }
});

describe("contacts anywhere", () => {
  it("finds the same contacts in a feed as in the list, whatever the prefixes", () => {
    const feed = `<feed xmlns="http://www.w3.org/2005/Atom"><entry><content>
      <c:contact xmlns:c="http://www.w3.org/2005/Atom"><c:name> Bob </c:name></c:contact></content></entry></feed>`;
    const list = readContactList(DEFAULT_NS);
    const held = contactsAnywhere(feed);
    assert.ok(list.ok && held.ok);
    assert.deepEqual(held.value, list.value.contacts);
  });

  it("finds the same contacts on other prefixes, with their attributes in another order, re-indented", () => {
    const list = readContactList(`<contacts xmlns:atom="http://www.w3.org/2005/Atom" xmlns:v="urn:v">
      <contact id="1" v:source="book"><name>Bob</name><email type="work" xml:lang="en">bob@example.org</email></contact>
      <c:contact xmlns:c="urn:c"><c:name>Carol</c:name></c:contact></contacts>`);
    const held = contactsAnywhere(`<r xmlns="urn:x"><entry><k:contact xmlns:k="urn:c">
        <k:name> Carol </k:name>
      </k:contact></entry>
      <contact xmlns="" xmlns:w="urn:v" w:source='book' id="1">
        <name>
          Bob
        </name>
        <email xml:lang="en" type="work">bob@example.org</email>
      </contact></r>`);
    assert.ok(list.ok && held.ok);
    assert.deepEqual([...held.value].sort(), [...list.value.contacts].sort());
  });

  it("tells apart contacts of the same text whose attributes differ: each is a contact of its own", () => {
    const held = contactsAnywhere(`<contacts>
      <contact id="1"><name>Sam Lee</name><email type="work">sam@example.org</email></contact>
      <contact id="2"><name>Sam Lee</name><email type="work">sam@example.org</email></contact>
      <contact id="1"><name>Sam Lee</name><email type="home">sam@example.org</email></contact>
      <contact id="1"><name>Sam Lee</name><email type="home">sam@example.org</email></contact></contacts>`);
    assert.ok(held.ok);
    assert.equal(new Set(held.value).size, 3);
    assert.deepEqual([...countOccurrences([held.value[0], held.value[2]], held.value).values()], [1, 2]);
  });

  it("writes a contact's canonical form as XML that reads back to the same contact", () => {
    const read = contactsAnywhere(
      `<a:contact xmlns:a="urn:a" xmlns:b="urn:b" b:z="1" b:y="&quot;2&quot;" x="&lt;3"><a:name>A &amp; B</a:name></a:contact>`,
    );
    assert.ok(read.ok);
    const [contact] = read.value;
    assert.equal(
      contact,
      '<contact xmlns="urn:a" xmlns:n0="urn:b" x="&lt;3" n0:y="&quot;2&quot;" n0:z="1"><name>A &amp; B</name></contact>',
    );
    assert.deepEqual(contactsAnywhere(contact), { ok: true, value: [contact] });
  });

  it("tells contacts apart by another field, text or name, and by the same fields in another form", () => {
    const list = readContactList(PREFIXED);
    assert.ok(list.ok);
    const bob = list.value.contacts[0];
    const otherFields = [
      "<contact><name>Bob</name></contact>",
      "<contact><name>Bob</name><email>bob@example.org</email><phone>1</phone></contact>",
      "<contact><name>Bob</name><email>bob@example.net</email></contact>",
      "<contact><title>Bob</title><email>bob@example.org</email></contact>",
      "<contact><name>Bob\u00a0</name><email>bob@example.org</email></contact>",
    ];
    // Stripped of or given attributes, re-namespaced, the fields reordered or renested.
    const otherForm = [
      '<contact id="1"><name>Bob</name><email>bob@example.org</email></contact>',
      '<contact><name>Bob</name><email type="work">bob@example.org</email></contact>',
      '<contact xmlns="urn:y"><name>Bob</name><email>bob@example.org</email></contact>',
      '<contact><name xmlns="urn:y">Bob</name><email>bob@example.org</email></contact>',
      "<contact><email>bob@example.org</email><name>Bob</name></contact>",
      "<contact><fields><name>Bob</name><email>bob@example.org</email></fields></contact>",
    ];
    for (const other of [...otherFields, ...otherForm]) {
      const held = contactsAnywhere(other);
      assert.ok(held.ok);
      assert.notEqual(held.value[0], bob, other);
      // A failure names the held contact that says the same in another form.
      const named = /, held only as .* \(its attributes, namespaces or order changed\)$/;
      assert.equal(named.test(describeMissing(bob, held.value)), otherForm.includes(other), other);
    }
  });

  it("counts contacts outside the root's namespace as contacts of the list", () => {
    const list = readContactList(
      '<contacts xmlns="urn:a"><contact xmlns="urn:b"><name>Bob</name></contact></contacts>',
    );
    assert.ok(list.ok);
    assert.equal(list.value.contacts.length, 1);
  });

  it("counts how often each expected contact is held", () => {
    assert.deepEqual(
      [...countOccurrences(["a", "b"], ["a", "a", "c"])],
      [
        ["a", 2],
        ["b", 0],
      ],
    );
  });
});

it("isAbsoluteUri accepts URIs with a scheme and refuses registered relation names", () => {
  assert.equal(isAbsoluteUri("urn:sxd:rel:x"), true);
  assert.equal(isAbsoluteUri("https://rel.test/x"), true);
  assert.equal(isAbsoluteUri("self"), false);
  assert.equal(isAbsoluteUri("/relative"), false);
});
