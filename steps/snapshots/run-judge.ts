/**
 * The snapshot rules read over every exchange of the run (harness/run/whole-run.ts). SNAP-1's
 * should part: every reply to a GET of a resource or a snapshot, whichever scenario read it (a
 * chain of SNAP-6, the race of SNAP-15, the reads before each update), has a Last-Modified no
 * later than its Date (RFC 9110 §8.8.2.1).
 */
import type { TargetDescription } from "../../harness/description/target.ts";
import type { RunCheck, RunExchange } from "../../harness/run/whole-run.ts";
import { datedAhead, datedAheadFailure } from "./dates.ts";

/** The check's name, as the step attaches it. */
export const EVERY_LAST_MODIFIED_BY_ITS_DATE = "snapshots: every Last-Modified no later than its reply's Date";

/** Whether a URL is a snapshot resource of the description or one of its snapshots: under its collection, or a resource it names. */
export function snapshotAddresses({ baseUrl, snapshots }: TargetDescription): (url: string) => boolean {
  const named = (snapshots.resources ?? []).map(({ path }) => `${baseUrl}${path}`);
  const under = [
    ...(snapshots.collection === undefined ? [] : [`${baseUrl}${snapshots.collection}`]),
    ...named.map((url) => `${url}/`),
  ];
  return (url) => named.includes(url) || under.some((prefix) => url.startsWith(prefix));
}

const everyLastModifiedByItsDate: RunCheck = (exchanges, target) => {
  const seen = new Map<unknown, RunExchange>(exchanges.map((at) => [at.exchange, at]));
  const dated = datedAhead(
    exchanges.map((at) => at.exchange),
    snapshotAddresses(target),
  );
  const [first, ...rest] = dated.ahead.map((exchange) => seen.get(exchange) as RunExchange);
  return first ? { ...datedAheadFailure(dated), evidence: [first, ...rest] } : undefined;
};

export const runChecks: Readonly<Record<string, RunCheck>> = {
  [EVERY_LAST_MODIFIED_BY_ITS_DATE]: everyLastModifiedByItsDate,
};
