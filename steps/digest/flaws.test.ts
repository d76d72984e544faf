import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseCredentials } from "../../lib/auth-params.ts";
import { forgedTail } from "../support/tokens.ts";
import { digestChallenges } from "./digest-client.ts";
import { type Answering, DEFECTS, type Flawed, MISMATCHES } from "./flaws.ts";

function answering(qop: string | null, algorithm: "MD5" | "SHA-256" = "MD5"): Answering {
  const qopParam = qop === null ? "" : `, qop="${qop}"`;
  const parsed = digestChallenges(`Digest realm="r", nonce="AAABogkGoDYAAAAAAAAADK5iGnm8vCV3iCm9lA"${qopParam}`);
  assert.ok(parsed.ok);
  return {
    challenge: parsed.value[0],
    algorithm,
    request: { method: "GET", uri: "/protected" },
    credentials: { username: "u", password: "p", qop: qop === null ? null : "auth", nc: 2 },
    offered: [algorithm],
  };
}

function sent(flawed: Flawed): Map<string, string> {
  assert.ok("authorization" in flawed, "a request to send");
  const parsed = parseCredentials(flawed.authorization);
  assert.ok(parsed.ok);
  return parsed.value.params;
}

describe("nonces forged from an issued one", () => {
  it("keep the length and the alphabet and change the tail", () => {
    for (const nonce of ["AAABogkGoDYAAAAAAAAADK5iGnm8vCV3iCm9lA", "1700000000-9f86d081", "dGVzdA==", "0123456789"]) {
      const forged = forgedTail(nonce);
      assert.equal(forged.length, nonce.length, nonce);
      assert.notEqual(forged, nonce);
      assert.equal(forged.slice(0, nonce.length - 6), nonce.slice(0, nonce.length - 6), "the head is kept");
    }
    assert.match(forgedTail("0123456789"), /^[0-9]+$/);
    assert.match(forgedTail("deadbeef01"), /^[0-9a-f]+$/);
    assert.ok(forgedTail("dGVzdA==").endsWith("=="));
  });

  it("decode to other bytes, where a decoder ignores the last character's spare bits", () => {
    const nonce = Buffer.from("a nonce of 40 bytes, say, for the test..").toString("base64url");
    assert.notDeepEqual(Buffer.from(forgedTail(nonce), "base64url"), Buffer.from(nonce, "base64url"));
  });

  it("are sent with the digest computed over them, the rest unchanged", () => {
    const a = answering("auth");
    const params = sent(MISMATCHES["a nonce of the server's shape it never issued"](a));
    assert.equal(params.get("nonce"), forgedTail(a.challenge.params.get("nonce") ?? ""));
    assert.equal(params.get("username"), "u");
  });
});

describe("malformed credentials", () => {
  it("write nc in several wrong shapes, each with the count above those used", () => {
    const shapes = ["nc of one digit", "nc of six digits", "nc of nine digits", "nc not hexadecimal"].map((name) =>
      sent(DEFECTS[name](answering("auth"))).get("nc"),
    );
    assert.deepEqual(shapes, ["2", "000002", "000000002", "0000002g"]);
    for (const nc of shapes) assert.equal(Number.parseInt(nc ?? "", 16), 2);
  });

  it("do not apply where the challenge offers no qop, for the cases about qop, nc and cnonce", () => {
    for (const name of ["no cnonce", "no nc", "no qop", "nc of six digits", "unknown qop"]) {
      const flawed = DEFECTS[name](answering(null));
      assert.ok("notApplicable" in flawed, name);
    }
    assert.ok("authorization" in DEFECTS["no uri"](answering(null)));
  });

  it("name an algorithm the server did not offer, its -sess twin first", () => {
    assert.equal(sent(DEFECTS["an algorithm not offered"](answering("auth"))).get("algorithm"), "MD5-sess");
    const everything = {
      ...answering("auth"),
      offered: ["MD5", "MD5-sess", "SHA-256", "SHA-256-sess", "SHA-512-256", "SHA-512-256-sess"],
    };
    assert.ok("notApplicable" in DEFECTS["an algorithm not offered"](everything));
  });

  it("name an unknown algorithm over the digest of the accepted one", () => {
    const a = answering("auth", "MD5");
    const flawed = sent(DEFECTS["unknown algorithm"](a));
    const valid = sent(DEFECTS["no uri"](a));
    assert.equal(flawed.get("algorithm"), "X-SXD-UNKNOWN");
    assert.equal(flawed.get("response")?.length, 32, "an MD5 digest");
    assert.equal(valid.get("algorithm"), "MD5");
  });
});
