import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ATOM_NS, parseXml } from "../../lib/xml.ts";
import {
  contactElement,
  contactFeedDocument,
  contactListDocument,
  contactsOfList,
  longListsFixture,
  parseFixture,
  serializeElement,
} from "./contact-list.ts";

describe("long lists (sxd limits, LIM-5)", () => {
  it("holds a list of each length asked for, every contact a different one, valid as a fixture", () => {
    const lists = longListsFixture([3, 250]);
    assert.deepEqual(Object.keys(lists), ["long-3", "long-250"]);
    assert.equal(new Set(lists["long-250"].map(contactElement)).size, 250);
    assert.equal(lists["long-3"].length, 3);
    assert.ok(parseFixture(JSON.stringify(lists), "generated").ok);
  });
});

describe("contacts fixture", () => {
  it("accepts users with lists of text fields", () => {
    const parsed = parseFixture('{"alice": [{"name": "Bob", "email": "bob@example.org"}], "carol": []}', "f.json");
    assert.deepEqual(parsed, { ok: true, value: { alice: [{ name: "Bob", email: "bob@example.org" }], carol: [] } });
  });

  for (const [text, fragment] of [
    ["[1]", "expected an object"],
    ['{"a/b": []}', "not a plain path segment"],
    ['{"alice": {}}', "must be a list"],
    ['{"alice": [{"1st": "x"}]}', "not an XML element name"],
    ['{"alice": [{"name": 3}]}', "must be text"],
    ["{", "not valid JSON"],
  ]) {
    it(`refuses ${text} with a message naming the problem`, () => {
      const parsed = parseFixture(text, "f.json");
      assert.equal(parsed.ok, false);
      if (!parsed.ok) assert.match(parsed.error, new RegExp(`^f\\.json: .*${fragment}`));
    });
  }
});

describe("contact list document", () => {
  const contacts = [contactElement({ name: "Bob & Co", email: "bob@example.org" })];
  const links = {
    self: "http://c.test/user/alice/contacts",
    export: { rel: "urn:x", href: "http://m.test/i;t=1", title: "Go" },
  };

  for (const atomPrefixed of [true, false]) {
    it(`reads back its contacts (${atomPrefixed ? "atom: prefix" : "Atom default namespace"})`, () => {
      const document = contactListDocument(contacts, links, atomPrefixed);
      const parsed = parseXml(document);
      assert.ok(parsed.ok);
      const atomLinks = parsed.root.children.filter((c) => c.ns === ATOM_NS && c.local === "link");
      assert.equal(atomLinks.length, 2);
      const read = contactsOfList(document);
      assert.ok(read.ok);
      assert.equal(read.value.length, 1);
      assert.match(read.value[0], /Bob &amp; Co/);
    });
  }

  it("leaves out the links it is not given", () => {
    const document = contactListDocument(contacts, {}, true);
    assert.doesNotMatch(document, /link/);
  });

  it("is refused when the root is not contacts", () => {
    assert.equal(contactsOfList("<feed/>").ok, false);
    assert.equal(contactsOfList("not xml").ok, false);
  });
});

describe("serializeElement", () => {
  it("keeps a contact's namespace when embedded under another default namespace", () => {
    const plain = contactsOfList("<contacts><contact><name>A</name></contact></contacts>");
    assert.ok(plain.ok);
    const feed = parseXml(contactFeedDocument(plain.value, "http://m.test/user/a", "a"));
    assert.ok(feed.ok);
    const contact = feed.root.children.find((c) => c.local === "entry")?.children.find((c) => c.local === "content")
      ?.children[0];
    assert.equal(contact?.local, "contact");
    assert.equal(contact?.ns, undefined);
    assert.equal(contact?.children[0].ns, undefined);
  });

  it("round-trips namespaced attributes and escaped text", () => {
    const parsed = parseXml('<c xmlns="urn:a" xmlns:p="urn:p" p:x="1 &amp; 2"><n>&lt;b&gt;</n></c>');
    assert.ok(parsed.ok);
    const again = parseXml(serializeElement(parsed.root));
    assert.ok(again.ok);
    assert.deepEqual(again.root, parsed.root);
  });
});
