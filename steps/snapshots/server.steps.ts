/**
 * Steps for snapshots on update: a resource, its versions, the snapshots that keep them and
 * the links between them. Every scenario works on a resource of its own (see support/snapshots.ts).
 */
import { type Answered, headerOf } from "../../harness/evidence/exchange.ts";
import { parseHttpDate } from "../../lib/http-date.ts";
import { mediaTypeMatches } from "../../lib/media-type.ts";
import { linksByRel } from "../support/atom.ts";
import { type DataTable, Given, Then, When } from "../support/cucumber.ts";
import { expectThat, fail } from "../support/expect.ts";
import { getEach } from "../support/reads.ts";
import type { SxdWorld } from "../support/world.ts";
import {
  expectGone,
  expectLink,
  expectNoLoopBack,
  expectVersion,
  lastWalkEnd,
  snapshotUrls,
  stopUrl,
  updateTimes,
  versionShape,
  walk,
} from "./checks.ts";
import { datedAhead, datedAheadFailure } from "./dates.ts";
import { freshResource } from "./resources.ts";
import { EVERY_LAST_MODIFIED_BY_ITS_DATE } from "./run-judge.ts";
import {
  type EntryField,
  entryIn,
  fetchEntry,
  getEachEntry,
  isSuccess,
  readCurrent,
  resourceOf,
  snapshotUrl,
} from "./snapshots.ts";

Given("a fresh entry resource", function (this: SxdWorld) {
  return freshResource(this, false);
});

Given("a fresh entry resource that the client may delete", function (this: SxdWorld) {
  return freshResource(this, true);
});

Given("the resource has been updated {int} time(s)", async function (this: SxdWorld, times: number) {
  return updateTimes(this, times, []);
});

const KEPT: Record<string, EntryField[]> = {
  nothing: [],
  "the author and the content": ["author", "content"],
  "the title": ["title"],
};

Given(
  /^the resource has been updated (\d+) times, each update keeping (nothing|the author and the content|the title)$/,
  async function (this: SxdWorld, times: string, kept: string) {
    return updateTimes(this, Number(times), KEPT[kept]);
  },
);

Given("the client has read the resource", async function (this: SxdWorld) {
  const resource = resourceOf(this);
  const reply = await readCurrent(this, resource);
  expectThat(reply.response.status === 200, "200 for the current resource", `status ${reply.response.status}`, reply);
  resource.remembered = resource.lastRead;
});

When("the client GETs the resource", async function (this: SxdWorld) {
  await readCurrent(this, resourceOf(this));
});

/** The replies to "the client GETs each snapshot", s1 first. */
const snapshotsRead = new WeakMap<SxdWorld, Answered[]>();

function snapshotsReadBy(world: SxdWorld): Answered[] {
  const replies = snapshotsRead.get(world);
  if (!replies)
    throw new Error("no snapshot read yet in this scenario: start with 'When the client GETs each snapshot'");
  return replies;
}

When("the client GETs each snapshot, s1 to s{int}", async function (this: SxdWorld, last: number) {
  const resource = resourceOf(this);
  const replies: Answered[] = [];
  const urls = Array.from({ length: last }, (_, i) => snapshotUrl(resource, i + 1));
  await getEach(this, urls, (reply, _url, index) => {
    replies[index] = reply;
  });
  snapshotsRead.set(this, replies);
});

When("the client DELETEs the resource", async function (this: SxdWorld) {
  await this.http.send("DELETE", resourceOf(this).url);
});

Then("the reply carries a Last-Modified HTTP date", function (this: SxdWorld) {
  const value = headerOf(this.reply, "last-modified");
  expectThat(
    value !== undefined && parseHttpDate(value) !== undefined,
    "a Last-Modified header with an HTTP date",
    value === undefined ? "no Last-Modified" : `Last-Modified: ${value}`,
    this.reply,
  );
});

// SNAP-1's should part, on every read of the scenario (those just after an update too), and
// once the run is over on every read of the run (run-judge.ts).
Then(
  "every reply to a GET of a resource or a snapshot, in the whole run, has a Last-Modified no later than its Date",
  function (this: SxdWorld) {
    this.judgeWithTheRun(EVERY_LAST_MODIFIED_BY_ITS_DATE);
    const { url } = resourceOf(this);
    const dated = datedAhead(this.http.exchanges, (read) => read === url || read.startsWith(`${url}/`));
    if (dated.judged === 0)
      return this.notRun("no reply to a GET of the resource carried both a Last-Modified and a Date to compare");
    if (dated.ahead.length > 0) {
      const { expected, got } = datedAheadFailure(dated);
      fail(expected, got, dated.ahead[0]);
    }
    return undefined;
  },
);

Then("the reply has no body", function (this: SxdWorld) {
  const body = this.reply.response.body;
  expectThat(body.length === 0, "no body", `a body of ${body.length} characters`, this.reply);
});

Then("the reply is an Atom entry with author name, title, id and content", function (this: SxdWorld) {
  const entry = entryIn(this.reply);
  const missing = Object.entries({
    "author/name": entry.authorName,
    title: entry.title,
    id: entry.id,
    content: entry.content,
  })
    .filter(([, value]) => value === undefined || value === "")
    .map(([name]) => name);
  expectThat(
    missing.length === 0,
    "an entry with author/name, title, id and content",
    `no ${missing.join(", ")}`,
    this.reply,
  );
});

Then("the entry's {string} link is absolute and points to the resource", function (this: SxdWorld, rel: string) {
  expectLink(this.reply, rel, resourceOf(this).url, "the resource");
});

// SNAP-5: the links of a snapshot are absolute and lead to its neighbours.
Then(
  "the entry's {string} link is absolute and points to snapshot s{int}",
  function (this: SxdWorld, rel: string, n: number) {
    expectLink(this.reply, rel, snapshotUrl(resourceOf(this), n), `snapshot s${n}`);
  },
);

Then("each reply is {int} with Content-Type {string}", function (this: SxdWorld, status: number, type: string) {
  for (const [index, reply] of snapshotsReadBy(this).entries()) {
    const { status: got } = reply.response;
    expectThat(got === status, `status ${status} for snapshot s${index + 1}`, `status ${got}`, reply);
    const actual = headerOf(reply, "content-type");
    expectThat(mediaTypeMatches(actual, type), `Content-Type ${type}`, `Content-Type ${actual ?? "(none)"}`, reply);
  }
});

// SNAP-5: every snapshot links to itself and its neighbours, by their addresses; a blank cell is left open.
Then("each snapshot's links are absolute and point to:", function (this: SxdWorld, table: DataTable) {
  const resource = resourceOf(this);
  const replies = snapshotsReadBy(this);
  for (const row of table.hashes()) {
    const reply = replies[Number(row.snapshot.replace(/^s/, "")) - 1];
    if (!reply) throw new Error(`the table names ${row.snapshot}, which the scenario did not read`);
    for (const rel of ["self", "previous", "next"]) {
      const stop = row[rel];
      if (stop) expectLink(reply, rel, stopUrl(resource, stop), stop === "the resource" ? stop : `snapshot ${stop}`);
    }
  }
});

Then(
  "the oldest snapshot's previous link, if it has one, leads back to none of the later versions",
  function (this: SxdWorld) {
    const [oldest] = snapshotsReadBy(this);
    expectNoLoopBack(this, oldest);
    const previous = linksByRel(entryIn(oldest), "previous");
    this.observe(
      previous.length === 0
        ? "The oldest snapshot carries no previous link (the spec leaves this open)."
        : `The oldest snapshot carries a previous link to ${previous[0].href}, outside the chain (the spec leaves this open).`,
    );
  },
);

Then(
  "snapshots s1 to s{int} hold the versions before each update, in order",
  async function (this: SxdWorld, last: number) {
    const resource = resourceOf(this);
    const urls = Array.from({ length: last }, (_, i) => snapshotUrl(resource, i + 1));
    await getEachEntry(this, urls, ({ reply, entry }, index) =>
      expectVersion(entry, resource, index + 1, reply, "identified"),
    );
  },
);

Then("there is no snapshot s{int}", async function (this: SxdWorld, n: number) {
  const reply = await this.http.send("GET", snapshotUrl(resourceOf(this), n));
  expectThat(!isSuccess(reply), `no snapshot s${n} (a status outside 2xx)`, `status ${reply.response.status}`, reply);
});

// SNAP-6: previous and next chain the versions, each way.
Then(
  "following {string} links from the resource visits, link by link:",
  async function (this: SxdWorld, rel: string, stops: DataTable) {
    await walk(this, rel, resourceOf(this).url, stops.raw().flat());
  },
);

Then(
  "following {string} links back from there visits, link by link:",
  async function (this: SxdWorld, rel: string, stops: DataTable) {
    const from = lastWalkEnd(this);
    if (!from) throw new Error("no earlier walk in this scenario to start from");
    await walk(this, rel, from.url, stops.raw().flat());
  },
);

Then(
  "the walk back ends at s1: its previous link, if it has one, leads back to none of the versions walked",
  function (this: SxdWorld) {
    const end = lastWalkEnd(this);
    if (!end) throw new Error("no earlier walk in this scenario to end");
    expectNoLoopBack(this, end);
  },
);

// SNAP-7: a snapshot is the full entry of its version, under the resource's id.
Then("the resource and every snapshot carry one and the same id", async function (this: SxdWorld) {
  const resource = resourceOf(this);
  // The server's id is the reference, not the one the suite sent: creation is not in the spec.
  const current = await fetchEntry(this, resource.url);
  const id = current.entry.id;
  expectThat(Boolean(id), `an id on the resource ${resource.url}`, "none", current.reply);
  const urls = snapshotUrls(resource);
  await getEachEntry(this, urls, ({ reply, entry }, index) =>
    expectThat(entry.id === id, `the resource's id ${id} at ${urls[index]}`, `the id ${entry.id ?? "(none)"}`, reply),
  );
});

// SNAP-8: the resource serves the last version put.
Then("the resource serves the last version that was put", async function (this: SxdWorld) {
  const resource = resourceOf(this);
  const { reply, entry } = await fetchEntry(this, resource.url);
  expectVersion(entry, resource, resource.versions.length, reply, "full");
});

// SNAP-10: whole, whichever version it is (which one each snapshot keeps is SNAP-3's business).
Then("each snapshot is a full entry of a version that was put", async function (this: SxdWorld) {
  const resource = resourceOf(this);
  const versions = new Set(resource.versions.map(versionShape));
  await getEachEntry(this, snapshotUrls(resource), ({ reply, entry }, index) => {
    expectThat(Boolean(entry.id), "an entry with its id", "no id", reply);
    const kept = versionShape(resource.versions[index]);
    expectThat(
      versions.has(versionShape(entry)),
      `every field of a version put, as of version ${index + 1}: ${kept}`,
      versionShape(entry),
      reply,
    );
  });
});

// SNAP-9: DELETE removes the resource with all its snapshots.
Then("neither the resource nor any of its snapshots is served any more", async function (this: SxdWorld) {
  await expectGone(this, (status) => status < 200 || status > 299, "a status outside 2xx");
});

Then("the resource and each of its snapshots answer {statuses}", async function (this: SxdWorld, statuses: number[]) {
  await expectGone(this, (status) => statuses.includes(status), `one of ${statuses.join(", ")}`);
});
