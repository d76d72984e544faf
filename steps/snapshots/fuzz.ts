/**
 * The updates generator of `sxd fuzz` (SNAP-11, SNAP-12, SNAP-14, SNAP-15): mutated entries
 * (lib/entry-mutants.ts), preconditions and Content-Types (lib/update-mutants.ts) PUT to a
 * resource sxd creates under snapshots.collection, alone or several copies at once, and odd
 * snapshot addresses read with GET. Every mutation alone first, then combinations drawn from
 * the seed. The verdicts are in fuzz-verdicts.ts.
 *
 * Each trial reads the resource first and sends the validators it read (a replay gets fresh
 * ones), then reads it back: a refused update must have changed nothing. A resource an update
 * changed is deleted and a new one made for the next trial, so every trial starts from a
 * version whose Last-Modified is the one a client has just read.
 */
import { randomBytes } from "node:crypto";
import { type Answered, headerOf } from "../../harness/evidence/exchange.ts";
import type { FuzzContext, FuzzGenerator, FuzzTrial, Recipe } from "../../harness/fuzz/engine.ts";
import { targetDispatcher } from "../../harness/wire/dispatcher.ts";
import {
  type EntryMutation,
  entryMutationId,
  mutateEntry,
  parseEntryMutation,
  randomEntryMutation,
  singleEntryMutations,
  smallerEntryMutation,
} from "../../lib/entry-mutants.ts";
import { parseHttpDate } from "../../lib/http-date.ts";
import { ATOM_ENTRY_TYPE } from "../../lib/media-type.ts";
import {
  AT_ONCE,
  CONTENT_TYPES,
  copiesAtOnce,
  ODD_PATHS,
  PRECONDITION_MUTATIONS,
  preconditionsOf,
} from "../../lib/update-mutants.ts";
import { linksByRel, readEntry } from "../support/atom.ts";
import { fuzzClient } from "../support/fuzz-client.ts";
import type { HttpClient } from "../support/http.ts";
import { acceptedVerdict, raceVerdict, type Seen, serverError, transportFailure } from "./fuzz-verdicts.ts";
import { entryBody, isSuccess, newScratch, putScratch, versionNumbered } from "./snapshots.ts";

/** The resource the trials work on; `changed`: an update got in (or may have), so the next trial makes a new one. */
interface Held {
  url: string;
  id: string;
  changed: boolean;
}

export function fuzzGenerators(context: FuzzContext): FuzzGenerator[] {
  return [updates(context)];
}

function updates(context: FuzzContext): FuzzGenerator {
  const { target } = context;
  const dispatcher = targetDispatcher(context.timeoutMs, context.tls);
  const client = () => fuzzClient(context, dispatcher);
  const singles = interleaved([
    singleEntryMutations().map(entryMutationId),
    [...PRECONDITION_MUTATIONS],
    Object.keys(CONTENT_TYPES),
    Object.keys(ODD_PATHS),
    [...AT_ONCE],
  ]);
  let held: Held | undefined;

  /** The resource to mutate: the one held while no update changed it, else a new one. */
  async function resource(http: HttpClient): Promise<Held | string> {
    if (held && !held.changed) return held;
    if (held) await http.send("DELETE", held.url).catch(() => undefined);
    held = undefined;
    const made = newScratch(target);
    const reply = await putScratch(http, made);
    if (!isSuccess(reply)) {
      return `PUT with If-None-Match: * at ${made.url} (snapshots.collection ${target.snapshots.collection}) answered ${reply.response.status}: sxd fuzz updates only a resource it made there`;
    }
    held = { url: made.url, id: made.id, changed: false };
    return held;
  }

  return {
    name: "updates",
    describe: () => ({ baseUrl: target.baseUrl, collection: target.snapshots.collection ?? "(not stated)" }),
    async close() {
      if (held)
        await client()
          .send("DELETE", held.url)
          .catch(() => undefined);
      await dispatcher.close();
    },
    async prepare() {
      if (target.snapshots.resources) {
        return "the description names snapshots.resources (a server that does not create): sxd fuzz updates only a resource it creates under snapshots.collection";
      }
      if (target.snapshots.collection === undefined)
        return "the target description does not say where sxd fuzz may create resources: state snapshots.collection";
      const http = client();
      const made = await resource(http);
      if (typeof made === "string") return made;
      const read = await http.send("GET", made.url);
      const lastModified = headerOf(read, "last-modified");
      if (read.response.status !== 200 || lastModified === undefined) {
        return `GET ${made.url} answered ${read.response.status} ${lastModified ? "" : "without a Last-Modified"}: nothing to send back as If-Unmodified-Since (SNAP-1)`;
      }
      made.changed = true;
      const control = await http.send("PUT", made.url, {
        headers: { "content-type": ATOM_ENTRY_TYPE, "if-unmodified-since": lastModified },
        body: entryBody(made.id, versionNumbered(2)),
      });
      if (!isSuccess(control)) {
        return `a valid update with If-Unmodified-Since: ${lastModified} was refused with ${control.response.status} (SNAP-2): a refused mutant would prove nothing`;
      }
      return undefined;
    },
    draw(random, n): Recipe {
      if (n < singles.length) return [singles[n]];
      const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
      if (random() < 0.2) return [pick(Object.keys(ODD_PATHS))];
      const draws = 1 + Math.floor(random() * 3);
      const recipe = new Set<string>();
      for (let i = 0; i < draws; i++) {
        const family = random();
        if (family < 0.45) recipe.add(entryMutationId(randomEntryMutation(random)));
        else if (family < 0.75) recipe.add(pick(PRECONDITION_MUTATIONS));
        else if (family < 0.9) recipe.add(pick(Object.keys(CONTENT_TYPES)));
        else recipe.add(pick(AT_ONCE));
      }
      return [...recipe];
    },
    async run(recipe) {
      const http = client();
      const trial: FuzzTrial = { exchanges: http.exchanges };
      try {
        const made = await resource(http);
        if (typeof made === "string") return trial;
        const path = recipe.find((id) => ODD_PATHS[id] !== undefined);
        if (path) await oddPath(http, made, ODD_PATHS[path], trial);
        else await update(http, made, recipe, trial);
      } catch {
        // A read or a new resource got no reply: no verdict on the mutant; the next trial starts afresh.
        if (held) held.changed = true;
      }
      return trial;
    },
    smaller(recipe) {
      const fewer = recipe.length > 1 ? recipe.map((_, i) => recipe.filter((__, j) => j !== i)) : [];
      const shorter = recipe.flatMap((id, i) => {
        const m = parseEntryMutation(id);
        const smaller = m && smallerEntryMutation(m);
        return smaller ? [recipe.map((other, j) => (j === i ? entryMutationId(smaller) : other))] : [];
      });
      return [...fewer, ...shorter];
    },
  };
}

async function oddPath(http: HttpClient, made: Held, template: string, trial: FuzzTrial): Promise<void> {
  const reply = await sendJudged(http, trial, "GET", template.replace("{res}", made.url), { asWritten: true });
  if (reply && reply.response.status >= 500)
    trial.failure = serverError(reply, "a GET of an address that names no snapshot");
}

async function update(http: HttpClient, made: Held, recipe: Recipe, trial: FuzzTrial): Promise<void> {
  const before = await http.send("GET", made.url);
  const seenBefore = seen(before);
  const lastModified = headerOf(before, "last-modified");
  if (before.response.status !== 200 || lastModified === undefined) {
    made.changed = true;
    return;
  }
  const entryMutations = recipe.map(parseEntryMutation).filter((m): m is EntryMutation => m !== undefined);
  // Each copy sent at once is a version of its own (at-once:N), so the one that stayed shows.
  const entries = Array.from({ length: copiesAtOnce(recipe) }, () =>
    mutateEntry(
      { id: made.id, title: `Fuzz ${randomBytes(4).toString("hex")}`, authorName: "sxd fuzz", content: "mutated" },
      entryMutations,
    ),
  );
  const preconditions = preconditionsOf(
    { lastModified, etag: headerOf(before, "etag") },
    recipe.filter((id) => id.startsWith("ius:") || id.startsWith("if-")),
  );
  const typeId = recipe.filter((id) => CONTENT_TYPES[id] !== undefined).at(-1);
  const type = typeId === undefined ? { value: ATOM_ENTRY_TYPE, wrong: false } : CONTENT_TYPES[typeId];
  const headers = { ...preconditions.headers, ...(type.value === undefined ? {} : { "content-type": type.value }) };
  const sent = await Promise.all(
    entries.map((entry) => sendJudged(http, trial, "PUT", made.url, { headers, body: entry.body })),
  );
  const puts = sent.filter((put): put is Answered => put !== undefined);
  // Changed, for all sxd can tell, until the read after the updates shows otherwise.
  made.changed = true;
  if (puts.length < sent.length) return;
  const crashed = puts.find((put) => put.response.status >= 500);
  if (crashed) {
    trial.judged = crashed;
    trial.failure = serverError(crashed, "a mutated update");
    return;
  }
  const after = await http.send("GET", made.url);
  const seenAfter = seen(after);
  const changed =
    seenAfter.status !== seenBefore.status ||
    seenAfter.title !== seenBefore.title ||
    seenAfter.previous !== seenBefore.previous;
  made.changed = changed;
  const landed = puts.filter(isSuccess);
  const put = landed[1] ?? landed[0] ?? puts[0];
  trial.judged = put;
  if (landed.length === 0) {
    if (changed) {
      trial.failure = {
        row: preconditions.stale ? "SNAP-11" : "SNAP-12",
        kind: "changed",
        why: `refused with ${put.response.status}, yet the resource changed (title ${JSON.stringify(seenBefore.title)} → ${JSON.stringify(seenAfter.title)}, previous ${seenBefore.previous ?? "none"} → ${seenAfter.previous ?? "none"})`,
      };
    }
    return;
  }
  made.changed = true;
  // The date as read, in any of HTTP's formats, and no If-Match that would be evaluated instead.
  const sentDate = parseHttpDate(preconditions.headers["if-unmodified-since"])?.getTime();
  const asRead =
    !("if-match" in headers) && sentDate !== undefined && sentDate === parseHttpDate(lastModified)?.getTime();
  trial.failure =
    acceptedVerdict(put.response.status, { ...preconditions, wrongType: type.wrong, ...entries[0] }, seenAfter) ??
    raceVerdict(puts, asRead);
}

/** The mutated request, the one the verdict is about; without a reply, that is the verdict. */
async function sendJudged(
  http: HttpClient,
  trial: FuzzTrial,
  ...[method, url, options]: Parameters<HttpClient["send"]>
): Promise<Answered | undefined> {
  try {
    return await http.send(method, url, options);
  } catch (error) {
    trial.failure = transportFailure((error as Error).message);
    return undefined;
  } finally {
    trial.judged = http.exchanges.at(-1);
  }
}

function seen(reply: Answered): Seen {
  const read = reply.response.status === 200 ? readEntry(reply.response.body, reply.url) : undefined;
  if (!read?.ok) return { status: reply.response.status };
  return {
    status: reply.response.status,
    title: read.entry.title,
    previous: linksByRel(read.entry, "previous")[0]?.url,
  };
}

/** The lists taken in turn, one of each, so that a short budget sends some of every family. */
function interleaved(lists: string[][]): string[] {
  const longest = Math.max(...lists.map((list) => list.length));
  return Array.from({ length: longest }, (_, i) => lists.flatMap((list) => (i < list.length ? [list[i]] : []))).flat();
}
