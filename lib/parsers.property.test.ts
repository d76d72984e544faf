// Properties of the parsers every reference request goes through, over thousands of generated
// inputs a run (fast-check; a failure is shrunk to its smallest case and printed with the seed
// that replays it): none throws on any text, and what the reference writes reads back the same.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { readAtomEntry } from "./atom.ts";
import { formatParams, parseChallenges, parseCredentials, parseParamList } from "./auth-params.ts";
import { formatHttpDate, parseHttpDate, retryAfterMs } from "./http-date.ts";
import { mediaTypeMatches, parseMediaType } from "./media-type.ts";
import { escapeXml } from "./xml.ts";

const RUNS = 3000;

/** Text made mostly of the characters these grammars care about, so the generator reaches their corners. */
const syntaxText = fc.string({
  unit: fc.oneof(
    fc.constantFrom(" ", "\t", ",", ";", "=", '"', "\\", "/", ":", "<", ">", "&", "\r", "\n", "\u0000"),
    fc.constantFrom("Digest", "Basic", "realm", "nonce", "charset", "type", "GMT", "Sun", "Nov", "1994"),
    fc.string({ unit: "grapheme-ascii", maxLength: 3 }),
    fc.string({ unit: "binary", maxLength: 2 }),
  ),
  maxLength: 40,
});
const anyText = fc.oneof(syntaxText, fc.string({ unit: "binary", maxLength: 80 }));
const token = fc.stringMatching(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,12}$/);

test("the authentication header parsers never throw, and say ok or why not", () => {
  fc.assert(
    fc.property(anyText, (text) => {
      for (const result of [parseCredentials(text), parseChallenges(text), parseParamList(text)]) {
        assert.ok(result.ok ? result.value !== undefined : result.error.length > 0);
      }
    }),
    { numRuns: RUNS },
  );
});

test("an auth-param list reads back as written, whatever its values hold", () => {
  const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) });
  const directives = fc.uniqueArray(fc.record({ name: token, value: printable, quoted: fc.boolean() }), {
    selector: (d) => d.name.toLowerCase(),
    minLength: 1,
    maxLength: 8,
  });
  fc.assert(
    fc.property(directives, (list) => {
      const expected = new Map(list.map((d) => [d.name.toLowerCase(), d.value]));
      const parsed = parseCredentials(`Digest ${formatParams(list)}`);
      assert.ok(parsed.ok, parsed.ok ? "" : parsed.error);
      assert.equal(parsed.value.scheme, "Digest");
      assert.deepEqual(parsed.value.params, expected);
      assert.deepEqual(parseParamList(formatParams(list)), { ok: true, value: expected });
    }),
    { numRuns: RUNS },
  );
});

test("media types: parsing never throws, and a type that parses matches itself", () => {
  const built = fc
    .tuple(token, token, fc.array(fc.tuple(token, fc.oneof(token, syntaxText)), { maxLength: 4 }))
    .map(([type, subtype, params]) => `${type}/${subtype}${params.map(([n, v]) => `; ${n}=${v}`).join("")}`);
  fc.assert(
    fc.property(fc.oneof(anyText, built), (text) => {
      const parsed = parseMediaType(text);
      if (parsed === undefined) return;
      assert.equal(parsed.type, parsed.type.toLowerCase());
      assert.equal(parsed.subtype, parsed.subtype.toLowerCase());
      assert.ok(mediaTypeMatches(text, text), text);
    }),
    { numRuns: RUNS },
  );
});

test("HTTP dates: parsing never throws; every date written reads back; Retry-After is a wait or nothing", () => {
  const instant = fc.integer({ min: 0, max: Date.UTC(9999, 11, 31, 23, 59, 59) / 1000 }).map((s) => s * 1000);
  fc.assert(
    fc.property(anyText, instant, (text, ms) => {
      const parsed = parseHttpDate(text);
      assert.ok(parsed === undefined || !Number.isNaN(parsed.getTime()), text);
      assert.equal(parseHttpDate(formatHttpDate(new Date(ms)))?.getTime(), ms);
      const wait = retryAfterMs(text, ms);
      assert.ok(wait === undefined || (Number.isFinite(wait) && wait >= 0), `${text}: ${wait}`);
    }),
    { numRuns: RUNS },
  );
});

/** Characters XML 1.0 allows (§2.2), weighted toward the ones with a meaning in markup. */
const xmlChar = fc.oneof(
  fc.constantFrom("\t", "\n", "\r", " ", "<", ">", "&", '"', "'", "]]>", "\u0085", "\u2028"),
  fc.integer({ min: 0x20, max: 0xd7ff }).map((c) => String.fromCodePoint(c)),
  fc.integer({ min: 0xe000, max: 0xfffd }).map((c) => String.fromCodePoint(c)),
  fc.integer({ min: 0x10000, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
);

test("the Atom entry reader never throws: on any text, or on an entry cut or spliced anywhere", () => {
  const entry = fc
    .tuple(fc.string({ unit: xmlChar, maxLength: 20 }), fc.string({ unit: xmlChar, maxLength: 20 }))
    .map(
      ([title, content]) =>
        `<entry xmlns="http://www.w3.org/2005/Atom"><id>urn:x</id><title>${escapeXml(title)}</title><author><name>A</name></author><content type="html">${escapeXml(content)}</content><link rel="previous" href="/e/s1"/></entry>`,
    );
  const damaged = fc.tuple(entry, fc.nat(), fc.nat(), anyText).map(([text, at, length, splice]) => {
    const start = at % (text.length + 1);
    return text.slice(0, start) + splice + text.slice(start + (length % 8));
  });
  fc.assert(
    fc.property(fc.oneof(anyText, entry, damaged), (text) => {
      const read = readAtomEntry(text);
      assert.ok(read.ok ? Array.isArray(read.entry.links) : read.error.length > 0);
    }),
    { numRuns: RUNS },
  );
});
