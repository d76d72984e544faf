import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, it } from "node:test";
import { holdProcess } from "../../test/support/hostile.ts";
import {
  BACKEND_TRIES,
  ContactStore,
  compareEachWithEarlier,
  type Fetcher,
  fetchContacts,
  UnserialisedImports,
} from "./import-store.ts";

const LIST = '<contacts xmlns:atom="http://www.w3.org/2005/Atom"><contact><name>A</name></contact></contacts>';

function answering(body: string, status = 200, type = "application/xml;charset=UTF-8"): Fetcher {
  return async () => new Response(body, { status, headers: { "content-type": type } });
}

describe("fetchContacts", () => {
  it("asks the configured contacts server for the user's list", async () => {
    let asked = "";
    const fetcher: Fetcher = async (url) => {
      asked = url;
      return new Response(LIST);
    };
    const outcome = await fetchContacts("http://contacts.test", "al ice", { timeoutMs: 1000, fetcher });
    assert.equal(asked, "http://contacts.test/user/al%20ice/contacts");
    assert.deepEqual(outcome, { ok: true, contacts: ['<contact xmlns=""><name>A</name></contact>'] });
  });

  for (const [what, fetcher, status] of [
    ["a 404", answering("<error/>", 404), 502],
    ["garbage", answering("<<<"), 502],
    ["XML that is not a contact list", answering("<feed/>"), 502],
    [
      "a refused connection",
      async () => {
        throw new TypeError("fetch failed");
      },
      502,
    ],
    [
      "a reply slower than the timeout",
      (_url: string, init: { signal: AbortSignal }) =>
        new Promise<Response>((resolve, reject) => {
          // A reply that would come far too late; the timer also keeps the test's event loop alive.
          const late = setTimeout(() => resolve(new Response(LIST)), 60_000);
          init.signal.addEventListener("abort", () => {
            clearTimeout(late);
            reject(init.signal.reason);
          });
        }),
      504,
    ],
  ] as Array<[string, Fetcher, number]>) {
    it(`turns ${what} into a ${status} with a message`, async () => {
      const outcome = await fetchContacts("http://contacts.test", "alice", { timeoutMs: 20, fetcher });
      assert.equal(outcome.ok, false);
      if (!outcome.ok) {
        assert.equal(outcome.status, status);
        assert.match(outcome.message, /contacts server/);
      }
    });
  }
});

describe("fetchContacts with node's own client (the default)", () => {
  async function serving(handle: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> {
    const server = createServer(handle);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
  }

  it("reads the list the contacts server serves, asking for XML", async () => {
    let accept: string | undefined;
    const { url, server } = await serving((request, response) => {
      accept = request.headers.accept;
      response.writeHead(200, { "content-type": "application/xml" }).end(LIST);
    });
    try {
      const outcome = await fetchContacts(url, "alice", { timeoutMs: 2000 });
      assert.deepEqual(outcome, { ok: true, contacts: ['<contact xmlns=""><name>A</name></contact>'] });
      assert.equal(accept, "application/xml");
    } finally {
      server.close();
    }
  });

  it("names the Content-Type of a reply that is not a list, and a status that is not 200", async () => {
    const { url, server } = await serving((request, response) => {
      const missing = request.url?.includes("nobody");
      response.writeHead(missing ? 404 : 200, { "content-type": "text/html" }).end("<html/>");
    });
    try {
      const notAList = await fetchContacts(url, "alice", { timeoutMs: 2000 });
      assert.equal(notAList.ok, false);
      if (!notAList.ok) assert.match(notAList.message, /\(text\/html\) is not a contact list/);
      assert.deepEqual(await fetchContacts(url, "nobody", { timeoutMs: 2000 }), {
        ok: false,
        status: 502,
        message: "the contacts server answered 404",
        backendStatus: 404,
      });
    } finally {
      server.close();
    }
  });

  it("turns a refused connection into a 502 and a reply slower than the timeout into a 504", async () => {
    const { url, server } = await serving(() => undefined);
    try {
      const slow = await fetchContacts(url, "alice", { timeoutMs: 50 });
      assert.equal(slow.ok === false && slow.status, 504);
    } finally {
      server.closeAllConnections();
      server.close();
    }
    const refused = await fetchContacts(url, "alice", { timeoutMs: 2000 });
    assert.equal(refused.ok === false && refused.status, 502);
  });

  it("leaves out of its limit the time this process was held up, where the contacts server runs too", async () => {
    // The hold comes before the server has read the request: counted, it would use up the limit
    // before the contacts server could start its answer.
    // Limit 300 ms, so at most 600 ms in all; the answer comes 450 ms in, 400 of them held.
    const { url, server } = await serving((_request, response) => {
      holdProcess(400);
      setTimeout(() => response.writeHead(200, { "content-type": "application/xml" }).end(LIST), 50);
    });
    try {
      const outcome = await fetchContacts(url, "alice", { timeoutMs: 300 });
      assert.equal(outcome.ok, true, JSON.stringify(outcome));
    } finally {
      server.close();
    }
  });

  it("still gives up on a contacts server that never answers, though the process was held up", async () => {
    const { url, server } = await serving(() => holdProcess(300));
    try {
      const silent = await fetchContacts(url, "alice", { timeoutMs: 200 });
      assert.equal(silent.ok === false && silent.status, 504);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  /** A contacts server behind a gateway: "not now" (the headers given) for the first `refusals` requests, then the list. */
  async function limited(refusals: number, refusal: { status?: number; headers?: Record<string, string> } = {}) {
    const seen = { requests: 0 };
    const served = await serving((_request, response) => {
      seen.requests++;
      if (seen.requests <= refusals) response.writeHead(refusal.status ?? 429, refusal.headers ?? {}).end();
      else response.writeHead(200, { "content-type": "application/xml" }).end(LIST);
    });
    return { ...served, seen };
  }

  it("rides out a rate limit: asks again after Retry-After (seconds, a date) or a back-off, then reads the list", async () => {
    for (const [what, headers] of [
      ["Retry-After: 0", { "retry-after": "0" }],
      ["Retry-After as a date already past", { "retry-after": "Thu, 01 Jan 2026 00:00:00 GMT" }],
      ["no Retry-After", {}],
      ["a 503 with Retry-After", { "retry-after": "0" }],
    ] as Array<[string, Record<string, string>]>) {
      const status = what.startsWith("a 503") ? 503 : 429;
      const { url, server, seen } = await limited(BACKEND_TRIES - 1, { status, headers });
      try {
        const outcome = await fetchContacts(url, "alice", { timeoutMs: 3000 });
        assert.equal(outcome.ok, true, `${what}: ${JSON.stringify(outcome)}`);
        assert.equal(seen.requests, BACKEND_TRIES, what);
      } finally {
        server.close();
      }
    }
  });

  it("answers 503 with Retry-After, not 502, when the contacts server keeps saying not now", async () => {
    const { url, server, seen } = await limited(Number.POSITIVE_INFINITY, { headers: { "retry-after": "0" } });
    try {
      const outcome = await fetchContacts(url, "alice", { timeoutMs: 3000 });
      assert.deepEqual(outcome, {
        ok: false,
        status: 503,
        message: `the contacts server answered 429 (not now) to ${BACKEND_TRIES} request(s); try again in 1 s`,
        headers: { "retry-after": "1" },
      });
      assert.equal(seen.requests, BACKEND_TRIES);
    } finally {
      server.close();
    }
  });

  it("answers 503 at once when the wait asked for would pass the backend timeout, and passes the wait on", async () => {
    const { url, server, seen } = await limited(1, { headers: { "retry-after": "120" } });
    try {
      const outcome = await fetchContacts(url, "alice", { timeoutMs: 3000 });
      assert.equal(outcome.ok === false && outcome.status, 503);
      assert.deepEqual(outcome.ok === false && outcome.headers, { "retry-after": "120" });
      assert.equal(seen.requests, 1);
    } finally {
      server.close();
    }
  });

  it("takes a 503 without Retry-After as the contacts server's answer: 502, not asked again", async () => {
    const { url, server, seen } = await limited(1, { status: 503 });
    try {
      const outcome = await fetchContacts(url, "alice", { timeoutMs: 3000 });
      assert.deepEqual(outcome, {
        ok: false,
        status: 502,
        message: "the contacts server answered 503",
        backendStatus: 503,
      });
      assert.equal(seen.requests, 1);
    } finally {
      server.close();
    }
  });
});

describe("ContactStore", () => {
  it("replaces a user's set, so importing twice leaves one copy", () => {
    const store = new ContactStore();
    store.replace("alice", ["a", "b"]);
    store.replace("alice", ["a", "b"]);
    assert.deepEqual(store.get("alice"), ["a", "b"]);
    assert.equal(store.get("bob"), undefined);
  });

  it("refuses past its limits of users and bytes, counting a replaced set out", () => {
    const store = new ContactStore({ maxUsers: 2, maxBytes: 10 });
    assert.equal(store.refusal("alice", ["12345"]), undefined);
    store.replace("alice", ["12345"]);
    store.replace("bob", ["1"]);
    assert.match(store.refusal("carol", []) ?? "", /2 users/);
    assert.equal(store.refusal("alice", ["123456789"]), undefined);
    assert.match(store.refusal("alice", ["1234567890"]) ?? "", /10 bytes/);
    store.append("bob", ["234"]);
    assert.deepEqual(store.get("bob"), ["1", "234"]);
    assert.equal(store.refusal("bob", ["12345"]), undefined);
    assert.match(store.refusal("bob", ["123456"]) ?? "", /10 bytes/);
  });

  it("keeps its own copy of what it is given", () => {
    const store = new ContactStore();
    const given = ["a"];
    store.replace("alice", given);
    given.push("b");
    assert.deepEqual(store.get("alice"), ["a"]);
  });
});

describe("compareEachWithEarlier (the fault exp-import-compares-each-held)", () => {
  it("counts the contacts that repeat an earlier one", async () => {
    // Its wait holds no process open (a server's close must not wait for it): this test does,
    // or with nothing else open the process would end before the count comes.
    const open = setInterval(() => undefined, 1000);
    try {
      assert.equal(await compareEachWithEarlier(["a", "b", "a", "c", "b"]), 2);
    } finally {
      clearInterval(open);
    }
  });
});

it("imports not serialised: one alone leaves one copy; one that comes meanwhile is answered at once, before the copy is back", async () => {
  const store = new ContactStore();
  const imports = new UnserialisedImports(store, 20);
  await imports.import("ada", ["<a/>", "<b/>"]);
  assert.deepEqual(store.get("ada"), ["<a/>", "<b/>"]);
  const first = imports.import("ada", ["<a/>", "<b/>"]);
  await imports.import("ada", ["<a/>", "<b/>"]);
  assert.deepEqual(store.get("ada"), [], "the second was answered while the first refills");
  await first;
  assert.deepEqual(store.get("ada"), ["<a/>", "<b/>", "<a/>", "<b/>"]);
});
