import assert from "node:assert/strict";
import { test } from "node:test";
import type { BackendSeen } from "../../lib/export-backend.ts";
import { startReference } from "../server.ts";
import { backendRequestFor, DEFAULT_BACKEND, matchBackend } from "./backend.ts";

const request = (method: string, target: string, headers: Record<string, string> = {}) => ({
  method,
  target,
  path: target.split("?")[0] ?? target,
  headers,
});

test("a template is filled for the messaging server and matched by the contacts server", () => {
  const backend = { path: "/internal/export/{user}?t={token}" };
  const asked = backendRequestFor(backend, "al ice", "a.b/c");
  assert.deepEqual(asked, { path: "/internal/export/al%20ice?t=a.b%2Fc", method: "GET", headers: {} });
  assert.deepEqual(matchBackend(backend, request("GET", asked.path)), { user: "al ice", token: "a.b/c" });
  assert.equal(matchBackend(backend, request("POST", asked.path)), undefined);
  assert.equal(matchBackend(backend, request("GET", "/internal/export/alice")), undefined);
  assert.equal(matchBackend(backend, request("GET", "/internal/export/?t=x")), undefined);
});

test("the token may travel in a header, with another method", () => {
  const backend = { path: "/api/{user}/contacts", method: "POST", tokenHeader: "X-Export-Token" };
  const asked = backendRequestFor(backend, "bob", "tok");
  assert.deepEqual(asked, { path: "/api/bob/contacts", method: "POST", headers: { "x-export-token": "tok" } });
  assert.deepEqual(matchBackend(backend, request("POST", asked.path, asked.headers)), { user: "bob", token: "tok" });
  assert.deepEqual(matchBackend(backend, request("POST", asked.path)), { user: "bob", token: undefined });
});

test("the token may travel in a header's value as the template says, a bearer token among them", () => {
  const backend = { path: "/api/{user}", tokenHeader: "Authorization", tokenValue: "Bearer {token}" };
  const asked = backendRequestFor(backend, "bob", "t0k");
  assert.deepEqual(asked.headers, { authorization: "Bearer t0k" });
  assert.deepEqual(matchBackend(backend, request("GET", asked.path, asked.headers)), { user: "bob", token: "t0k" });
  // The scheme's name is compared without regard to case; another scheme, or the bare token, presents none.
  const lower = request("GET", asked.path, { authorization: "bearer t0k" });
  assert.deepEqual(matchBackend(backend, lower), { user: "bob", token: "t0k" });
  for (const value of ["t0k", "Basic t0k", "Bearer "]) {
    assert.deepEqual(matchBackend(backend, request("GET", asked.path, { authorization: value })), {
      user: "bob",
      token: undefined,
    });
  }
});

test("the default is the list's own path, without a token", () => {
  assert.deepEqual(backendRequestFor(DEFAULT_BACKEND, "alice", "t"), {
    path: "/user/alice/contacts",
    method: "GET",
    headers: {},
  });
});

for (const backend of [
  { path: "/internal/export/{user}?t={token}" },
  { path: "/api/{user}/list", method: "POST", tokenHeader: "X-Link-Token" },
  { path: "/api/{user}/list", tokenHeader: "Authorization", tokenValue: "Bearer {token}" },
]) {
  test(`the reference asks and serves at ${backend.method ?? "GET"} ${backend.path}, and checks its token there`, async () => {
    const seen: BackendSeen[] = [];
    const reference = await startReference({
      host: "127.0.0.1",
      ports: { base: 0, contacts: 0, messaging: 0 },
      servers: ["contacts", "messaging"],
      backend,
      onBackendRequest: (s) => seen.push(s),
    });
    try {
      const list = await (await fetch(`${reference.urls.contacts}/user/alice/contacts`)).text();
      assert.equal(seen.length, 0, "a read of the list is no backend request");
      const href = /href="([^"]*import[^"]*)"/.exec(list)?.[1]?.replaceAll("&amp;", "&") ?? "";
      const exported = await fetch(href, { method: "POST", redirect: "manual" });
      assert.equal(exported.status, 303);
      assert.equal(seen.length, 1);
      assert.equal(seen[0]?.user, "alice");
      assert.equal(seen[0]?.status, 200);
      assert.equal(href.endsWith(`t=${seen[0]?.token}`), true);
      assert.equal(seen[0]?.method, backend.method ?? "GET");
      if (backend.tokenValue) assert.equal(seen[0]?.headers.authorization, `Bearer ${seen[0]?.token}`);
      const forged = backendRequestFor(backend, "alice", "forged");
      const refused = await fetch(`${reference.urls.contacts}${forged.path}`, forged);
      assert.equal(refused.status, 403);
      assert.equal(seen.at(-1)?.status, 403);
    } finally {
      await reference.close();
    }
  });
}
