import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readAtomEntry } from "./atom.ts";
import { seededRandom } from "./digest-mutants.ts";
import {
  EXPANSION,
  entryMutationId,
  MAX_DEPTH,
  mutateEntry,
  parseEntryMutation,
  randomEntryMutation,
  singleEntryMutations,
} from "./entry-mutants.ts";
import { parseHttpDate } from "./http-date.ts";
import { asctimeDate, copiesAtOnce, preconditionsOf, rfc850Date } from "./update-mutants.ts";
import { parseXml } from "./xml.ts";

const FIELDS = { id: "urn:uuid:1", title: "A <title>", authorName: "Ann", content: "c & d" };

const text = (body: string | Uint8Array) => (typeof body === "string" ? body : new TextDecoder().decode(body));

describe("entry mutants", () => {
  it("without a mutation, the entry is a well-formed Atom entry with its four fields", () => {
    const { body, malformed } = mutateEntry(FIELDS, []);
    const read = readAtomEntry(text(body));
    assert.ok(read.ok, !read.ok ? read.error : "");
    assert.deepEqual([read.entry.id, read.entry.title, read.entry.authorName], ["urn:uuid:1", "A <title>", "Ann"]);
    assert.equal(malformed, false);
  });

  it("every id parses back to its mutation, and random draws are ids too", () => {
    for (const m of singleEntryMutations()) assert.deepEqual(parseEntryMutation(entryMutationId(m)), m);
    const random = seededRandom(5);
    for (let i = 0; i < 50; i++) {
      const m = randomEntryMutation(random);
      assert.deepEqual(parseEntryMutation(entryMutationId(m)), m);
    }
    for (const bad of ["entry:drop", "entry:drop:updated", "entry:deep:x", "entry:namespace:1", "ius:older"]) {
      assert.equal(parseEntryMutation(bad), undefined, bad);
    }
  });

  it("says malformed exactly where a strict reader finds no usable entry (DOCTYPEs aside: it refuses them all)", () => {
    for (const single of singleEntryMutations()) {
      if (single.kind.startsWith("doctype")) continue;
      // Nesting is well-formed at any depth; a reader may refuse it deeper than its own limit (sxd's: 100 levels).
      const m = single.kind === "deep" ? { ...single, size: 64 } : single;
      const mutant = mutateEntry(FIELDS, [m]);
      const body = mutant.body;
      const utf8 = typeof body === "string";
      const read = utf8 ? readAtomEntry(body) : undefined;
      const usable = read?.ok === true && Boolean(read.entry.id) && read.entry.title !== undefined;
      assert.equal(mutant.malformed, !usable, `${entryMutationId(m)}: ${read && !read.ok ? read.error : "read"}`);
    }
  });

  it("puts the byte 0xE9 in the title, which no UTF-8 decoder takes", () => {
    const { body, malformed } = mutateEntry(FIELDS, [{ kind: "latin1-title" }]);
    assert.ok(body instanceof Uint8Array);
    assert.ok(body.includes(0xe9));
    assert.throws(() => new TextDecoder("utf-8", { fatal: true }).decode(body));
    assert.equal(malformed, true);
  });

  it("declares an entity the title uses, nested a bounded number of times, and says so", () => {
    const plain = mutateEntry(FIELDS, [{ kind: "doctype" }]);
    assert.match(text(plain.body), /<!DOCTYPE entry \[<!ENTITY sxd "sxd-entity-expanded">\]>/);
    assert.match(text(plain.body), /<title>&sxd;<\/title>/);
    assert.equal(plain.declaresEntity, true);
    const nested = mutateEntry(FIELDS, [{ kind: "doctype-nested" }]);
    assert.match(text(nested.body), /<title>&c;<\/title>/);
    assert.equal(text(nested.body).split(EXPANSION).length - 1, 1, "one copy written, 16 once expanded");
    assert.equal(mutateEntry(FIELDS, [{ kind: "doctype" }, { kind: "drop", element: "title" }]).declaresEntity, false);
    assert.match(String(parseXml(text(plain.body)).ok), /false/, "sxd's own reader refuses a DOCTYPE");
  });

  it("cuts, grows and nests to the size asked, within bounds", () => {
    const whole = text(mutateEntry(FIELDS, []).body);
    assert.equal(text(mutateEntry(FIELDS, [{ kind: "truncate", size: 100 }]).body).length, 100);
    assert.equal(text(mutateEntry(FIELDS, [{ kind: "truncate", size: 1e6 }]).body).length, whole.length - 1);
    assert.equal(text(mutateEntry(FIELDS, [{ kind: "long-title", size: 500 }]).body).length, whole.length + 500);
    const deep = text(mutateEntry(FIELDS, [{ kind: "deep", size: 1e6 }]).body);
    assert.equal(deep.split("<x:d ").length - 1, MAX_DEPTH);
  });
});

describe("update mutants", () => {
  const lastModified = "Sun, 06 Nov 1994 08:49:37 GMT";

  it("writes the date read in RFC 9110's obsolete formats, which read back as the same date", () => {
    const date = new Date(Date.UTC(1994, 10, 6, 8, 49, 37));
    assert.equal(rfc850Date(date), "Sunday, 06-Nov-94 08:49:37 GMT");
    assert.equal(asctimeDate(date), "Sun Nov  6 08:49:37 1994");
    for (const id of ["ius:rfc850", "ius:asctime"]) {
      const sent = preconditionsOf({ lastModified }, [id]).headers["if-unmodified-since"];
      assert.equal(parseHttpDate(sent, date)?.getTime(), date.getTime(), sent);
    }
  });

  it("says which mutants are stale or unguarded, and If-Match makes the date count for nothing", () => {
    assert.deepEqual(preconditionsOf({ lastModified }, []), {
      headers: { "if-unmodified-since": lastModified },
      stale: false,
      unguarded: false,
    });
    const older = preconditionsOf({ lastModified }, ["ius:older"]);
    assert.equal(older.headers["if-unmodified-since"], "Sun, 06 Nov 1994 08:49:36 GMT");
    assert.equal(older.stale, true);
    assert.equal(preconditionsOf({ lastModified }, ["ius:missing"]).unguarded, true);
    assert.equal(preconditionsOf({ lastModified }, ["ius:garbage"]).unguarded, true);
    assert.equal(preconditionsOf({ lastModified }, ["ius:older", "if-match:wrong"]).stale, false);
    // A later mutation puts back what an earlier one took out (a campaign's draw found this).
    assert.equal(preconditionsOf({ lastModified }, ["ius:missing", "ius:asctime"]).unguarded, false);
    assert.equal(preconditionsOf({ lastModified }, ["ius:older", "ius:rfc850"]).stale, false);
    assert.equal(preconditionsOf({ lastModified }, ["ius:garbage", "ius:future"]).unguarded, false);
    assert.equal(preconditionsOf({ lastModified }, ["ius:missing", "if-match:star"]).unguarded, false);
    assert.equal(preconditionsOf({ lastModified, etag: '"v2"' }, ["if-match:weak"]).headers["if-match"], 'W/"v2"');
  });

  it("sends an update once, or as many times at once as the largest at-once mutation says", () => {
    assert.equal(copiesAtOnce([]), 1);
    assert.equal(copiesAtOnce(["ius:older", "at-once:2"]), 2);
    assert.equal(copiesAtOnce(["at-once:8", "at-once:2"]), 8);
    assert.equal(copiesAtOnce(["at-once:1000"]), 1, "only the sizes the generator knows");
  });
});
