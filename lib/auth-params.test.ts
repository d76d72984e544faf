import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatParams, parseChallenges, parseCredentials, parseParamList } from "./auth-params.ts";

describe("parseChallenges", () => {
  it("reads several challenges from one field, telling a new scheme from the next parameter", () => {
    const parsed = parseChallenges('Newauth realm="apps", type=1, title="Login to \\"apps\\"", Basic realm="simple"');
    assert.ok(parsed.ok);
    assert.deepEqual(
      parsed.value.map((c) => [c.scheme, Object.fromEntries(c.params)]),
      [
        ["Newauth", { realm: "apps", type: "1", title: 'Login to "apps"' }],
        ["Basic", { realm: "simple" }],
      ],
    );
  });

  it("reads quoted values with and without escapes in any order", () => {
    const parsed = parseCredentials('Digest a="x\\"y", b="plain", c="z\\\\", d="", e="last\\q"');
    assert.ok(parsed.ok);
    assert.deepEqual(Object.fromEntries(parsed.value.params), { a: 'x"y', b: "plain", c: "z\\", d: "", e: "lastq" });
  });

  it("joins repeated fields and lower-cases parameter names", () => {
    const parsed = parseChallenges(['Digest REALM="a", Nonce=abc', 'Digest realm=b , nonce = "x,y"']);
    assert.ok(parsed.ok);
    assert.equal(parsed.value.length, 2);
    assert.equal(parsed.value[0].params.get("realm"), "a");
    assert.equal(parsed.value[0].params.get("nonce"), "abc");
    assert.equal(parsed.value[1].params.get("nonce"), "x,y");
  });

  it("reads token68 and bare schemes", () => {
    const parsed = parseChallenges("Negotiate, Bearer abc.def==, Digest realm=x");
    assert.ok(parsed.ok);
    assert.deepEqual(
      parsed.value.map((c) => [c.scheme, c.token68]),
      [
        ["Negotiate", undefined],
        ["Bearer", "abc.def=="],
        ["Digest", undefined],
      ],
    );
  });

  it("refuses what the grammar does not allow", () => {
    for (const bad of [
      'Digest realm="open',
      "Digest realm=a b",
      'Digest realm="a", realm="b"',
      "",
      'Digest realm="a" nonce=b',
    ]) {
      assert.equal(parseChallenges(bad).ok, false, bad);
    }
  });
});

describe("parseCredentials and parseParamList", () => {
  it("reads exactly one set of credentials", () => {
    assert.equal(parseCredentials('Digest username="a", Basic x').ok, false);
    const parsed = parseCredentials('Digest username="Mufasa", nc=00000001');
    assert.ok(parsed.ok);
    assert.equal(parsed.value.params.get("nc"), "00000001");
  });

  it("reads a bare parameter list such as Authentication-Info", () => {
    const parsed = parseParamList('rspauth="abc", qop=auth, nc=00000001');
    assert.ok(parsed.ok);
    assert.equal(parsed.value.get("qop"), "auth");
  });
});

describe("formatParams", () => {
  it("quotes on request and wherever a value is not a token, escaping quotes and backslashes", () => {
    const text = formatParams([
      { name: "qop", value: "auth", quoted: false },
      { name: "realm", value: 'a "b" \\c', quoted: false },
      { name: "nonce", value: "n", quoted: true },
    ]);
    assert.equal(text, 'qop=auth, realm="a \\"b\\" \\\\c", nonce="n"');
    const back = parseParamList(text);
    assert.ok(back.ok);
    assert.equal(back.value.get("realm"), 'a "b" \\c');
  });
});

it("a challenge says which of its values were quoted strings", () => {
  const parsed = parseChallenges('Digest realm="r", algorithm=MD5, nonce="n", stale=true, qop=auth');
  assert.ok(parsed.ok);
  assert.deepEqual([...(parsed.value[0]?.quoted ?? [])].sort(), ["nonce", "realm"]);
});
