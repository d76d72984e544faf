/**
 * Steps for snapshots on update: a resource, its versions, the snapshots that keep them and
 * the links between them. Every scenario works on a resource of its own (see support/snapshots.ts).
 */
import { headerOf } from "../../harness/evidence/exchange.ts";
import { parseHttpDate } from "../../lib/http-date.ts";
import { linksByRel } from "../support/atom.ts";
import { type DataTable, Given, Then, When } from "../support/cucumber.ts";
import { expectThat } from "../support/expect.ts";
import type { SxdWorld } from "../support/world.ts";
import {
  expectGone,
  expectLink,
  expectNoLoopBack,
  expectVersion,
  lastWalkEnd,
  singleLink,
  snapshotUrls,
  updateTimes,
  walk,
} from "./checks.ts";
import { freshResource } from "./resources.ts";
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

When("the client GETs snapshot s{int}", async function (this: SxdWorld, n: number) {
  await this.http.send("GET", snapshotUrl(resourceOf(this), n));
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

Then("the reply's Last-Modified is not later than its Date", function (this: SxdWorld) {
  const lastModified = headerOf(this.reply, "last-modified");
  const date = headerOf(this.reply, "date");
  const [modified, sent] = [parseHttpDate(lastModified), parseHttpDate(date)];
  if (!sent) return this.notRun("the reply carries no Date to compare its Last-Modified with");
  expectThat(
    modified !== undefined && modified.getTime() <= sent.getTime(),
    `a Last-Modified no later than the reply's Date (${date})`,
    `Last-Modified: ${lastModified ?? "none"}`,
    this.reply,
  );
  return undefined;
});

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

Then(
  "the entry's {string} link is absolute and leads to the version before the last update",
  async function (this: SxdWorld, rel: string) {
    const resource = resourceOf(this);
    const link = singleLink(this.reply, rel);
    expectThat(link.absolute, `an absolute href on the ${rel} link`, `href="${link.href}"`, this.reply);
    const { reply, entry } = await fetchEntry(this, link.url as string);
    expectVersion(entry, resource, resource.versions.length - 1, reply, "identified");
  },
);

Then(
  "the oldest snapshot's previous link, if it has one, leads back to none of the later versions",
  function (this: SxdWorld) {
    expectNoLoopBack(this, this.reply);
    const previous = linksByRel(entryIn(this.reply), "previous");
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

Then("each snapshot is a full entry of the version it keeps", async function (this: SxdWorld) {
  const resource = resourceOf(this);
  await getEachEntry(this, snapshotUrls(resource), ({ reply, entry }, index) => {
    expectThat(Boolean(entry.id), "an entry with its id", "no id", reply);
    expectVersion(entry, resource, index + 1, reply, "full");
  });
});

// SNAP-9: DELETE removes the resource with all its snapshots.
Then("neither the resource nor any of its snapshots is served any more", async function (this: SxdWorld) {
  await expectGone(this, (status) => status < 200 || status > 299, "a status outside 2xx");
});

Then("the resource and each of its snapshots answer {statuses}", async function (this: SxdWorld, statuses: number[]) {
  await expectGone(this, (status) => statuses.includes(status), `one of ${statuses.join(", ")}`);
});
