/**
 * The soak's clients, each a loop until a deadline: digest logins, updaters that keep the list
 * of updates the server acknowledged and check it against the snapshot chain, exporters, and
 * hostile clients. Every reply goes into one tally; a 5xx or a status no rule allows is noted.
 */
import { readAtomEntry } from "../../lib/atom.ts";
import { ATOM_ENTRY_TYPE } from "../../lib/media-type.ts";
import { DEMO_USER, type RunningReference } from "../../reference/index.ts";
import {
  answerChallenge,
  authorizationOf,
  chooseChallenge,
  digestChallenges,
} from "../../steps/digest/digest-client.ts";
import { openSocket, sendAllThenRead } from "../../test/support/raw-http.ts";

type Urls = RunningReference["urls"];

export class Tally {
  requests = 0;
  readonly statuses = new Map<number, number>();
  /** Replies with a 5xx, connection errors, statuses no rule allows, updates missing from a chain. */
  readonly problems = { serverErrors: 0, unexpected: 0, failed: 0, lost: 0 };
  acknowledged = 0;
  verified = 0;
  private readonly notes: string[] = [];

  note(kind: keyof Tally["problems"], line: string): void {
    this.problems[kind]++;
    if (this.notes.length < 20) this.notes.push(`${kind}: ${line}`);
  }

  get examples(): readonly string[] {
    return this.notes;
  }

  /** Sends one request; a status outside `allowed` (or a 5xx, or no reply) is noted. */
  async send(label: string, url: string, init: RequestInit, allowed: number[]): Promise<Response | undefined> {
    this.requests++;
    try {
      const reply = await fetch(url, { redirect: "manual", ...init });
      this.statuses.set(reply.status, (this.statuses.get(reply.status) ?? 0) + 1);
      if (reply.status >= 500) this.note("serverErrors", `${label}: ${reply.status} ${await reply.text()}`);
      else if (!allowed.includes(reply.status))
        this.note("unexpected", `${label}: ${reply.status} ${await reply.text()}`);
      return reply;
    } catch (error) {
      this.note("failed", `${label}: ${(error as Error).message}`);
      return undefined;
    }
  }
}

export type Client = (urls: Urls, tally: Tally, until: number) => Promise<void>;

export const digestLogins: Client = async (urls, tally, until) => {
  const protectedUrl = `${urls.base}/protected`;
  while (Date.now() < until) {
    const challenge = await tally.send("digest challenge", protectedUrl, {}, [401]);
    const parsed = digestChallenges(challenge?.headers.get("www-authenticate") ?? undefined);
    const chosen = parsed.ok ? chooseChallenge(parsed.value) : undefined;
    await challenge?.text();
    if (!chosen) continue;
    const answer = answerChallenge(chosen.challenge, chosen.algorithm, { method: "GET", uri: "/protected" }, DEMO_USER);
    const granted = await tally.send(
      "digest login",
      protectedUrl,
      { headers: { authorization: authorizationOf(answer.directives) } },
      [200],
    );
    await granted?.text();
  }
};

const entry = (content: string) =>
  `<entry xmlns="http://www.w3.org/2005/Atom"><id>urn:soak:1</id><title>t</title><author><name>A</name></author><content>${content}</content></entry>`;

/** Contents of the current resource and of each snapshot, oldest first, as the server serves them. */
async function chainOf(tally: Tally, url: string, versions: number): Promise<(string | undefined)[]> {
  const read = async (address: string) => {
    const reply = await tally.send("snapshot read", address, {}, [200]);
    const parsed = readAtomEntry((await reply?.text()) ?? "");
    return parsed.ok ? parsed.entry.content?.text : undefined;
  };
  const chain: (string | undefined)[] = [];
  for (let n = 1; n < versions; n++) chain.push(await read(`${url}/s${n}`));
  chain.push(await read(url));
  return chain;
}

/** One resource per updater at a time, updated with If-Match; every 50 updates its chain is checked, then it is deleted. */
export const updates: Client = async (urls, tally, until) => {
  const id = Math.random().toString(36).slice(2, 8);
  for (let generation = 0; Date.now() < until; generation++) {
    const url = `${urls.base}/entries/soak-${id}-${generation}`;
    const acknowledged: string[] = [];
    const put = async (content: string, headers: Record<string, string>, allowed: number[]) => {
      const reply = await tally.send(
        "update",
        url,
        { method: "PUT", headers: { "content-type": ATOM_ENTRY_TYPE, ...headers }, body: entry(content) },
        allowed,
      );
      await reply?.text();
      if (reply && allowed.includes(reply.status)) {
        acknowledged.push(content);
        tally.acknowledged++;
      }
    };
    await put(`${generation}.0`, { "if-none-match": "*" }, [201]);
    while (acknowledged.length > 0 && acknowledged.length < 50 && Date.now() < until) {
      const current = await tally.send("read", url, {}, [200]);
      await current?.text();
      await put(`${generation}.${acknowledged.length}`, { "if-match": current?.headers.get("etag") ?? "" }, [204]);
    }
    const chain = await chainOf(tally, url, acknowledged.length);
    acknowledged.forEach((content, k) => {
      if (chain[k] === content) tally.verified++;
      else tally.note("lost", `${url} version ${k + 1}: acknowledged ${content}, served ${chain[k]}`);
    });
    await (await tally.send("delete", url, { method: "DELETE" }, [204]))?.text();
  }
};

export const exports: Client = async (urls, tally, until) => {
  while (Date.now() < until) {
    const list = await tally.send("contact list", `${urls.contacts}/user/alice/contacts`, {}, [200]);
    const href = /href="([^"]*\/import[^"]*)"/.exec((await list?.text()) ?? "")?.[1];
    if (!href) continue;
    const exported = await tally.send("export", href.replaceAll("&amp;", "&"), { method: "POST" }, [303]);
    await exported?.text();
    const location = exported?.headers.get("location");
    if (location) await (await tally.send("exported list", location, {}, [200]))?.text();
  }
};

/** What a hostile client does, one after another: each is refused, and none may cost a 5xx. */
export const hostile: Client = async (urls, tally, until) => {
  const moves: (() => Promise<void>)[] = [
    async () => {
      const head = `PUT /entries/soak-huge HTTP/1.1\r\nhost: x\r\ncontent-type: ${ATOM_ENTRY_TYPE}\r\ncontent-length: ${1 << 20}\r\n\r\n`;
      const result = await sendAllThenRead(urls.base, head, Buffer.alloc(1 << 20, "x"));
      tally.requests++;
      if (!result.received.startsWith("HTTP/1.1 413 "))
        tally.note("unexpected", `oversized upload: ${result.error ?? result.received.slice(0, 40)}`);
    },
    async () => {
      const garbage = Buffer.from(Array.from({ length: 40 }, () => 32 + Math.floor(Math.random() * 95))).toString(
        "latin1",
      );
      await (
        await tally.send(
          "garbage authorization",
          `${urls.base}/protected`,
          { headers: { authorization: `Digest ${garbage}` } },
          [400, 401],
        )
      )?.text();
    },
    async () => {
      const body = entry("<broken");
      await (
        await tally.send(
          "malformed entry",
          `${urls.base}/entries/soak-bad`,
          { method: "PUT", headers: { "content-type": ATOM_ENTRY_TYPE, "if-none-match": "*" }, body },
          [400],
        )
      )?.text();
    },
    async () => {
      await (
        await tally.send("forged token", `${urls.messaging}/user/alice/import;t=abc.def`, { method: "POST" }, [403])
      )?.text();
    },
    async () => {
      const socket = await openSocket(urls.base);
      socket.on("error", () => undefined);
      socket.write(
        `PUT /entries/soak-cut HTTP/1.1\r\nhost: x\r\ncontent-type: ${ATOM_ENTRY_TYPE}\r\ncontent-length: 1000\r\n\r\n<entry`,
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
      socket.destroy();
    },
    async () => {
      await (await tally.send("unknown method", `${urls.base}/entries/x/s1`, { method: "DELETE" }, [405]))?.text();
    },
  ];
  for (let i = 0; Date.now() < until; i++) await moves[i % moves.length]();
};
