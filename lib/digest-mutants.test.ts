import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Directive, parseCredentials } from "./auth-params.ts";
import { hashA1, type Qop, responseDigest } from "./digest-math.ts";
import {
  MUTATION_KINDS,
  type MutationBase,
  mutate,
  mutationId,
  parseMutationId,
  randomMutations,
  seededRandom,
  singleMutations,
} from "./digest-mutants.ts";

const PASSWORD = "Circle of Life";
const values = {
  username: "Mufasa",
  realm: "http-auth@example.org",
  nonce: "7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v",
  uri: "/dir/index.html",
  algorithm: "SHA-256",
  qop: "auth",
  nc: "00000001",
  cnonce: "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ",
  opaque: "FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS",
};

/** What a server computes from the credentials as sent, with the right password. */
function expectedResponse(params: ReadonlyMap<string, string>, method = "GET"): string {
  return responseDigest({
    algorithm: "SHA-256",
    ha1: hashA1("SHA-256", params.get("username") ?? "", params.get("realm") ?? "", PASSWORD),
    nonce: params.get("nonce") ?? "",
    method,
    uri: params.get("uri") ?? "",
    qop: params.get("qop") as Qop | undefined,
    nc: params.get("nc"),
    cnonce: params.get("cnonce"),
  });
}

const quotedNames = new Set(["username", "realm", "nonce", "uri", "response", "cnonce", "opaque"]);
const directives: Directive[] = Object.entries(values).map(([name, value]) => ({
  name,
  value,
  quoted: quotedNames.has(name),
}));
directives.splice(5, 0, {
  name: "response",
  value: expectedResponse(new Map(Object.entries(values))),
  quoted: true,
});
const base: MutationBase = { directives, password: PASSWORD, method: "GET" };

const parsedParams = (authorization: string) => {
  const parsed = parseCredentials(authorization);
  assert.ok(parsed.ok, `parses: ${authorization.slice(0, 200)}`);
  return parsed.value.params;
};

describe("digest mutants", () => {
  it("leaves the base as it was without mutations, its response right", () => {
    const params = parsedParams(mutate(base, []).authorization);
    assert.equal(params.get("response"), expectedResponse(params));
  });

  it("uses every kind of mutation on the base, and each mutant differs from the base", () => {
    const singles = singleMutations(base);
    assert.deepEqual(new Set(singles.map((m) => m.kind)), new Set(MUTATION_KINDS));
    const plain = mutate(base, []).authorization;
    for (const m of singles) assert.notEqual(mutate(base, [m]).authorization, plain, mutationId(m));
  });

  it("recomputes the response where the mutation changes what the digest covers", () => {
    for (const id of ["username:empty", "realm:other", "nonce:cut", "uri:overlong:40", "nc:other", "qop:empty"]) {
      const mutation = parseMutationId(id);
      assert.ok(mutation, id);
      const params = parsedParams(mutate(base, [mutation]).authorization);
      assert.notEqual(params.get(mutation.directive), values[mutation.directive as keyof typeof values], id);
      assert.equal(params.get("response"), expectedResponse(params), `${id}: the response verifies`);
    }
  });

  it("keeps the old response where the mutation is meant to make it wrong", () => {
    for (const id of ["cnonce:stale", "nc:stale", "response:other", "response:cut"]) {
      const mutant = mutate(base, [parseMutationId(id) ?? assert.fail(id)]);
      const params = parsedParams(mutant.authorization);
      assert.notEqual(params.get("response"), expectedResponse(params), id);
      assert.ok(mutant.changesMeaning, id);
    }
    const params = parsedParams(mutate(base, [{ directive: "response", kind: "other-method" }]).authorization);
    assert.equal(params.get("response"), expectedResponse(params, "POST"), "computed for another method");
  });

  it("tells what changes the meaning from what is only malformed", () => {
    const meaning = (id: string) => mutate(base, [parseMutationId(id) ?? assert.fail(id)]).changesMeaning;
    for (const id of ["username:empty", "nonce:overlong", "response:empty", "algorithm:drop"])
      assert.ok(meaning(id), id);
    for (const id of ["uri:empty", "realm:other", "nc:other", "username:double-before", "cnonce:unclosed"])
      assert.ok(!meaning(id), id);
  });

  it("writes doubled directives and broken quoting that a strict reader refuses", () => {
    for (const id of ["uri:double-before", "nonce:double-after", "username:unclosed", "cnonce:inner-quote"]) {
      const mutation = parseMutationId(id) ?? assert.fail(id);
      assert.equal(parseCredentials(mutate(base, [mutation]).authorization).ok, false, id);
    }
    const doubled = mutate(base, [{ directive: "uri", kind: "double-before" }]).authorization;
    assert.ok(doubled.indexOf('uri="/dir/index.html?sxd-other=1"') < doubled.indexOf('uri="/dir/index.html"'));
    assert.ok(
      mutate(base, [{ directive: "nonce", kind: "unclosed" }]).authorization.endsWith(`nonce="${values.nonce}`),
    );
  });

  it("draws the same mutations from the same seed, other ones from another", () => {
    const draw = (seed: number) => {
      const random = seededRandom(seed);
      return Array.from({ length: 20 }, () => randomMutations(base, random).map(mutationId).join("+"));
    };
    assert.deepEqual(draw(7), draw(7));
    assert.notDeepEqual(draw(7), draw(8));
  });

  it("reads back the ids it writes, and refuses others", () => {
    for (const m of singleMutations(base)) assert.deepEqual(parseMutationId(mutationId(m)), m);
    assert.equal(parseMutationId("uri:explode"), undefined);
    assert.equal(parseMutationId("uri:overlong:x"), undefined);
  });
});
