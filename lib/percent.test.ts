import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { test } from "node:test";
import fc from "fast-check";
import { bytesOf, percentDecoded, percentDecodedBytes, percentEncoded, rawShare, textOfBytes } from "./percent.ts";
import { isWellFormedUri } from "./uri.ts";

test("escapes decode to the text they mean; bytes that are no UTF-8 stay bytes", () => {
  assert.equal(percentDecoded("rosa-k%7C1796664198%7Cd9f6"), "rosa-k|1796664198|d9f6");
  assert.equal(percentDecoded("%C3%A9t%C3%A9"), "été");
  const decoded = percentDecoded("ada%7C17%7C%D9%F6%41");
  assert.equal(decoded, "ada|17|\uDCD9\uDCF6A");
  assert.equal(rawShare(decoded), 2 / 10);
  assert.deepEqual([...bytesOf(decoded).subarray(-3)], [0xd9, 0xf6, 0x41]);
  assert.equal(percentDecoded("100%-sure%3"), "100%-sure%3", "a % that starts no escape is a %");
  assert.equal(percentDecoded("plain"), "plain");
});

test("the bytes a value means come one character a byte, UTF-8 or not, with no escape left", () => {
  assert.equal(percentDecodedBytes("7%7C%D9%C3%A9"), "7|\u00D9\u00C3\u00A9");
  assert.equal(percentDecodedBytes("plain.value"), "plain.value");
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
      const meant = percentDecodedBytes(percentEncoded(textOfBytes(bytes)));
      assert.equal(meant.length, bytes.length);
      assert.deepEqual([...Buffer.from(meant, "latin1")], [...bytes]);
    }),
  );
});

test("encoding spells the text as the served value did: its escapes, its raw characters, its hex case", () => {
  const served = "m2%2Fdq0bZT2y%3D%3D.NORS2DNS%3D%3D";
  assert.equal(percentEncoded(percentDecoded(served), served), served);
  assert.equal(percentEncoded("a/b==", "x=="), "a%2Fb==", "= kept raw where the served value had it raw");
  assert.equal(percentEncoded("a|b", "c%7cd"), "a%7cb", "lower-case hex where the served value writes it so");
  assert.equal(percentEncoded("a;b&c?d#e f%", ""), "a%3Bb%26c%3Fd%23e%20f%25", "what ends a value is always escaped");
  assert.equal(percentEncoded("ANNA", "%41b"), "%41NN%41", "an unreserved letter the served value escaped");
  assert.equal(percentEncoded("é\uDCD9", ""), "%C3%A9%D9");
});

test("decoding then encoding gives the served bytes back, and any text encodes to a well-formed value", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
      const text = textOfBytes(bytes);
      assert.deepEqual([...bytesOf(text)], [...bytes]);
      const written = percentEncoded(text);
      assert.ok(isWellFormedUri(`http://h/x;t=${written}`), written);
      assert.deepEqual([...bytesOf(percentDecoded(written))], [...bytes]);
    }),
  );
  fc.assert(
    fc.property(fc.string({ unit: "grapheme" }), fc.string(), (text, like) => {
      assert.ok(isWellFormedUri(`http://h/x;t=${percentEncoded(text, like)}`));
      assert.equal(percentDecoded(percentEncoded(text, like)), text);
    }),
  );
  const mac = randomBytes(32);
  assert.deepEqual(bytesOf(textOfBytes(mac)), mac);
});
