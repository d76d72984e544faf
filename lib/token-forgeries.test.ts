import assert from "node:assert/strict";
import { test } from "node:test";
import { readJwt, signedJwt, verifiedHs256 } from "./jwt.ts";
import { bytesOf, percentDecoded } from "./percent.ts";
import { forgeriesOf, shownBy, stepped, viewsOf } from "./token-forgeries.ts";

const users = { user: "ada", otherUser: "lin" };
const tokens = (kind: Parameters<typeof forgeriesOf>[0], token: string) =>
  forgeriesOf(kind, token, users).map((f) => f.token);

test("an unsigned base64url of the user name is forged for the other user, for that user's address", () => {
  const token = Buffer.from("ada").toString("base64url");
  const [forged] = forgeriesOf("other-user", token, users);
  assert.equal(Buffer.from(forged.token, "base64url").toString(), "lin");
  assert.equal(forged.forOtherUser, true);
  assert.equal(forged.what, "part 1 read as base64url: the user's name → the other user's");
  assert.match(forged.detail, /base64url text "ada": "ada" → "lin"/);
});

test("the user's name is changed where it stands as a word, in plain or decoded text, not inside another word", () => {
  assert.deepEqual(tokens("other-user", "ada.1760000000"), ["lin.1760000000"]);
  assert.deepEqual(tokens("other-user", Buffer.from("user=ada;n=2").toString("base64")), [
    Buffer.from("user=lin;n=2").toString("base64").replace(/=+$/, ""),
  ]);
  assert.deepEqual(tokens("other-user", "adam.17"), []);
  assert.deepEqual(forgeriesOf("other-user", "ada.17", { user: "ada" }), [], "no other user, no forgery");
});

test("hex numbers move one step either side, keeping their width and case; decimal times too", () => {
  const token = `00ff3a9c1b2d4e5f-1760000000-${"ab".repeat(32)}`;
  assert.deepEqual(tokens("number-up", token), [
    `00ff3a9c1b2d4e60-1760000000-${"ab".repeat(32)}`,
    `00ff3a9c1b2d4e5f-1760000001-${"ab".repeat(32)}`,
  ]);
  assert.deepEqual(tokens("number-down", token), [
    `00ff3a9c1b2d4e5e-1760000000-${"ab".repeat(32)}`,
    `00ff3a9c1b2d4e5f-1759999999-${"ab".repeat(32)}`,
  ]);
  assert.equal(stepped({ text: "0FFF", radix: 16 }, 1), "1000");
  assert.equal(stepped({ text: "FFFF", radix: 16 }, 1), undefined, "past its width");
  assert.equal(stepped({ text: "0", radix: 10 }, -1), undefined);
});

test("numbers inside decoded text are changed and encoded again", () => {
  const token = Buffer.from("ada|1760000000").toString("base64url");
  const forged = tokens("number-up", token).map((t) => Buffer.from(t, "base64url").toString());
  assert.ok(forged.includes("ada|1760000001"), forged.join(", "));
});

test("an opaque token shows nothing: no number, no text, only the tail cut applies", () => {
  const mac = "kq3v9a.Zk2lQ0xv8pX_aRt-3mN0cVbW1yH7uJ4sE6dF9gT2hA5";
  for (const kind of ["other-user", "number-up", "number-down", "jwt-alg-none", "jwt-unsigned"] as const)
    assert.deepEqual(tokens(kind, mac), [], kind);
  assert.deepEqual(tokens("tail-cut", mac), [mac.slice(0, -13)]);
  assert.match(shownBy(mac), /nothing sxd can decode/);
  assert.ok(viewsOf(mac).every((v) => v.encoding === "as written"));
});

test("a JWT: alg none without signature, signature dropped, claims changed with the signature kept", () => {
  const jwt = signedJwt({ sub: "ada", exp: 1760000000 }, "secret");
  const [header, payload, signature] = jwt.split(".");
  const [none] = tokens("jwt-alg-none", jwt);
  assert.deepEqual(readJwt(none)?.header, { alg: "none", typ: "JWT" });
  assert.ok(none.endsWith(`.${payload}.`));
  assert.deepEqual(tokens("jwt-unsigned", jwt), [`${header}.${payload}.`]);
  const [other] = forgeriesOf("jwt-other-subject", jwt, users);
  assert.equal(other.forOtherUser, true);
  assert.deepEqual(readJwt(other.token)?.payload, { sub: "lin", exp: 1760000000 });
  assert.ok(other.token.startsWith(`${header}.`) && other.token.endsWith(`.${signature}`));
  const [later] = tokens("jwt-later-expiry", jwt);
  assert.equal(readJwt(later)?.payload.exp, 1760003600);
  assert.equal(verifiedHs256(later, "secret"), undefined, "a changed claim breaks the signature");
  assert.deepEqual(verifiedHs256(jwt, "secret"), { sub: "ada", exp: 1760000000 });
  assert.equal(shownBy(jwt), "a JWT");
});

test("the tail cut keeps three quarters of the token", () => {
  assert.deepEqual(tokens("tail-cut", "abcdefgh"), ["abcdef"]);
  assert.deepEqual(tokens("tail-cut", "a"), []);
});

test("a version byte that is no UTF-8 hides nothing: the user's name beside it is changed", () => {
  const version = percentDecoded("%80");
  assert.deepEqual(tokens("other-user", `${version}ada|17`), [`${version}lin|17`]);
});

test("a token with raw bytes (a MAC percent-encoded as bytes): its user and expiry are forged, its bytes left alone", () => {
  const mac = percentDecoded("%D9%F6%31%32%33%34%FF%00%7C9%80");
  const token = `ada|1760000000|${mac}`;
  assert.deepEqual(tokens("number-up", token), [`ada|1760000001|${mac}`]);
  assert.deepEqual(tokens("number-down", token), [`ada|1759999999|${mac}`]);
  assert.deepEqual(tokens("other-user", token), [`lin|1760000000|${mac}`]);
  const [cut] = tokens("tail-cut", token);
  assert.ok(token.startsWith(cut) && bytesOf(cut).length < bytesOf(token).length);
});
