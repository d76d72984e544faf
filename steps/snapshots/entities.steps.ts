/**
 * Steps of entries that declare entities (SNAP-14). The plain update gets in first; the update
 * with the document type is sent on validators read after it, so only its DOCTYPE can be the
 * reason for a refusal. It passes refused with 400 (changing nothing) or stored with nothing
 * expanded; any expansion, any read of the named file, any request to sxd's address, or a
 * reply far slower than the plain one's fails it.
 */
import type { Answered } from "../../harness/evidence/exchange.ts";
import { Given, Then, When } from "../support/cucumber.ts";
import { expectThat, fail } from "../support/expect.ts";
import type { SxdWorld } from "../support/world.ts";
import {
  ENTITY_KINDS,
  type EntityProbe,
  entityProbe,
  muchSlower,
  type ProbeListener,
  probeListener,
} from "./entities.ts";
import { entryIn, isSuccess, resourceOf, updateScratch } from "./snapshots.ts";

interface EntityTry {
  plain: Answered;
  /** The resource read after the plain update, before the one with a document type. */
  before?: Answered;
  probe?: EntityProbe;
  reply?: Answered;
  listener?: ProbeListener;
}

const tries = new WeakMap<SxdWorld, EntityTry>();

function tryOf(world: SxdWorld): EntityTry & Required<Pick<EntityTry, "probe" | "reply">> {
  const done = tries.get(world);
  if (!done?.probe || !done.reply) throw new Error("no update with a document type was sent in this scenario");
  return { ...done, probe: done.probe, reply: done.reply };
}

Given("the same update without a document type got in", async function (this: SxdWorld) {
  const plain = await updateScratch(this, resourceOf(this));
  if (!isSuccess(plain))
    return this.notRun(
      `the same update without a document type was refused (status ${plain.response.status}): see SNAP-2`,
    );
  tries.set(this, { plain });
  return undefined;
});

When(
  new RegExp(
    `^the client PUTs the next version declaring (${Object.keys(ENTITY_KINDS).join("|")}), its title a reference to it$`,
  ),
  async function (this: SxdWorld, name: string) {
    const done = tries.get(this);
    if (!done) throw new Error("the plain update comes first: 'the same update without a document type got in'");
    const resource = resourceOf(this);
    const probe = entityProbe(name);
    if (probe.kind === "address") {
      done.listener = await probeListener(resource.url);
      if (!done.listener) return this.notRun(`sxd found no address of its own that reaches ${resource.url}`);
      const listener = done.listener;
      this.onCleanup(() => listener.close());
    }
    done.probe = probe;
    done.before = await this.http.send("GET", resource.url, {
      note: "the resource before the update with a document type",
    });
    // Read again and sent as the plain update was (retried on 412): only the DOCTYPE differs.
    done.reply = await updateScratch(this, resource, [], (entry) => probe.body(entry, done.listener?.url));
    return undefined;
  },
);

Then(
  "the update is refused with 400 and changes nothing, or stored with no entity expanded",
  async function (this: SxdWorld) {
    const { probe, reply } = tryOf(this);
    const status = reply.response.status;
    expectThat(
      status === 400 || isSuccess(reply),
      "400 (not well-formed for this server), or a 2xx with the entity stored unexpanded",
      `status ${status}`,
      reply,
    );
    const inPut = probe.evidence([reply.response.body]);
    if (inPut !== undefined) fail("no entity expanded or resolved in the reply", inPut, reply);
    const resource = resourceOf(this);
    const current = await this.http.send("GET", resource.url, {
      note: "the resource after the update with a document type",
    });
    const stored = probe.evidence([current.response.body]);
    if (stored !== undefined) fail("the resource with no entity expanded or resolved", stored, current);
    if (status === 400) {
      const before = tryOf(this).before;
      expectThat(
        before !== undefined && sameEntry(before, current),
        "the resource as it was before the refused update (title, author, content)",
        "a different entry",
        current,
      );
    }
  },
);

Then(
  "no request came to an address the entry named, and the reply came about as fast as the plain update's",
  function (this: SxdWorld) {
    const { plain, reply, listener } = tryOf(this);
    const hits = listener?.hits();
    expectThat(
      hits === undefined || hits.connections === 0,
      `no connection to ${listener?.url ?? "sxd's address"}, which only the entry named`,
      hits?.firstRequest === undefined ? "a connection to it" : `a request to it: ${hits.firstRequest}`,
      reply,
    );
    // The time sxd's own process was held up is not the target's (lib/held-up.ts).
    const [flawedMs, plainMs] = [reply, plain].map((e) => e.durationMs - (e.stalledMs ?? 0));
    expectThat(
      !muchSlower(flawedMs, plainMs),
      `a reply about as fast as the plain update's (${plainMs} ms): not 10 times slower and over 2 s`,
      `${flawedMs} ms`,
      reply,
    );
  },
);

/** The same entry in both replies, as far as a version goes: title, author name and content. */
function sameEntry(a: Answered, b: Answered): boolean {
  if (a.response.status !== 200 || b.response.status !== 200) return a.response.status === b.response.status;
  const [x, y] = [entryIn(a), entryIn(b)];
  return x.title === y.title && x.authorName === y.authorName && x.content?.text === y.content?.text;
}
