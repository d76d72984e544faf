/**
 * What an interop run (`sxd docs --results interop.json`) says on the spec site: under each
 * row, which implementations pass it, by their own verdicts (a server's `sxd test`, a client's
 * `sxd test-client`), and the pairs whose failed cells broke it; on the index and the behaviour
 * pages, the interop score. Nothing outside the site is linked: a cell's evidence path is text.
 */
import { escapeXml as escapeHtml } from "../../lib/xml.ts";
import {
  INTEROP_KIND,
  INTEROP_VERSION,
  type InteropCell,
  type InteropDocument,
  type OwnVerdict,
} from "../evidence/interop-document.ts";
import { interopScores, scoreText, type TaskGroup, taskGroupOf } from "../evidence/interop-score.ts";
import { type Row, sideOf } from "../judging/catalogue.ts";

export interface InteropResults {
  doc: InteropDocument;
  /** How the site names the run: the file as given. */
  label: string;
}

/**
 * The interop document in a parsed --results file; undefined where the file is of another kind
 * (a conformance.json). A file that says it is one but is not whole is an error.
 */
export function interopDocumentOf(value: unknown, file: string): InteropDocument | undefined {
  const doc = value as InteropDocument;
  if (typeof doc !== "object" || doc === null || doc.kind !== INTEROP_KIND) return undefined;
  if (doc.version !== INTEROP_VERSION)
    throw new Error(`${file} is interop.json version ${doc.version}, not ${INTEROP_VERSION}`);
  const whole =
    [doc.servers, doc.clients, doc.cells, doc.tasks].every(Array.isArray) &&
    [...doc.servers, ...doc.clients].every(
      (i) => typeof i?.name === "string" && Array.isArray(i.verdict?.failedRows),
    ) &&
    doc.cells.every(
      (c) => typeof c?.client === "string" && Array.isArray(c.rows?.client) && Array.isArray(c.rows?.server),
    );
  if (!whole) throw new Error(`${file} is not a whole interop.json of sxd`);
  return doc;
}

/** Where an implementation stands on a row, by its own verdict and the tasks it takes part in. */
export function standingOn(
  verdict: OwnVerdict,
  rowId: string,
  takesPart: boolean,
): { text: string; css: string; title: string } {
  const title = verdict.problem ?? `${verdict.verdict}, ${verdict.source}`;
  if (!takesPart)
    return { text: "does not take part", css: "not-applicable", title: "it does none of the tasks of this behaviour" };
  if (verdict.failedRows.includes(rowId)) return { text: "fails", css: "failed", title };
  if (verdict.warnedRows.includes(rowId)) return { text: "warns", css: "warning", title };
  // Each row as its run judged it: a row passed is passed, though the run is incomplete elsewhere.
  const judged = verdict.judged?.[rowId];
  if (judged === "passed") return { text: "passes", css: "passed", title };
  if (judged !== undefined) return { text: judged, css: judged.replace(/ /g, "-"), title };
  if (verdict.judged === undefined && (verdict.verdict === "conformant" || verdict.verdict === "non-conformant"))
    return { text: "passes", css: "passed", title };
  return { text: `not known (${verdict.verdict})`, css: "not-run", title };
}

/** Under a row: each implementation of the row's side and where it stands, then the pairs that broke it. Empty without interop runs. */
export function rowInteropHtml(row: Row, behaviourSlug: string, runs: InteropResults[]): string {
  return runs.map((run) => oneRunHtml(row, taskGroupOf(behaviourSlug), run)).join("\n");
}

function oneRunHtml(row: Row, group: TaskGroup | undefined, { doc, label }: InteropResults): string {
  const side = sideOf(row);
  const inGroup = (task: string) => group === undefined || group.tasks.some((t) => t === task);
  const implementations =
    side === "server"
      ? doc.servers.map((s) => ({ name: s.name, verdict: s.verdict, takesPart: s.tasks.some(inGroup) }))
      : doc.clients.map((c) => {
          const own = doc.cells.filter((cell) => cell.client === c.name && inGroup(cell.task));
          return { name: c.name, verdict: c.verdict, takesPart: !own.every((cell) => cell.result === "unsupported") };
        });
  const standings = implementations
    .map(({ name, verdict, takesPart }) => {
      const standing = standingOn(verdict, row.id, takesPart);
      return `<tr><th scope="row">${escapeHtml(name)}</th><td title="${escapeHtml(standing.title)}"><span class="verdict ${standing.css}">${escapeHtml(standing.text)}</span></td></tr>`;
    })
    .join("\n");
  // The cells whose failure the row explains, then those where it was broken without stopping the exchange.
  const explains = (cell: InteropCell) => cell.rows[side].some((r) => r.id === row.id);
  const breachOf = (cell: InteropCell) =>
    cell.rows[side].find((r) => r.id === row.id) ?? cell.alsoBroken?.[side].find((r) => r.id === row.id);
  const broke = doc.cells.filter((cell) => breachOf(cell) !== undefined);
  broke.sort((a, b) => Number(explains(b)) - Number(explains(a)));
  const pairs = broke
    .map((cell) => {
      const how = explains(cell) ? `blame: ${cell.blame ?? "none"}` : `${cell.result}, also broken`;
      return `<li>${escapeHtml(cell.client)} × ${escapeHtml(cell.server)}, ${escapeHtml(cell.task)} (${escapeHtml(how)}): ${escapeHtml(breachOf(cell)?.reason ?? "")} <small>evidence: <code>${escapeHtml(cell.evidence)}</code></small></li>`;
    })
    .join("\n");
  const pairsHtml =
    broke.length === 0
      ? `<p class="pairs none">No pair's cell broke ${row.id} in ${escapeHtml(label)}.</p>`
      : `<p>Pairs whose cells broke ${row.id}, those it explains a failure of first:</p><ul class="pairs">${pairs}</ul>`;
  return `<div class="interop" data-run="${escapeHtml(label)}">
<table class="results"><caption>Who passes ${row.id} in ${escapeHtml(label)}, by each ${side}'s own verdict</caption>
<tr><th scope="col">${side}</th><th scope="col">on ${row.id}</th></tr>
${standings}
</table>
${pairsHtml}
</div>`;
}

/** The interop score per behaviour of each run; with `slug`, the one behaviour of that page. Empty without runs. */
export function interopScoresHtml(runs: InteropResults[], slug?: string): string {
  if (runs.length === 0) return "";
  const wanted = slug === undefined ? undefined : taskGroupOf(slug);
  if (slug !== undefined && wanted === undefined) return "";
  const lines = runs.flatMap(({ doc, label }) =>
    interopScores(doc)
      .filter((score) => wanted === undefined || score.group === wanted)
      .map(
        (score) =>
          `<tr data-behaviour="${score.group.slug}"><td>${escapeHtml(label)}</td><th scope="row">${escapeHtml(score.group.title)}</th><td>${escapeHtml(score.group.tasks.join(", "))}</td><td class="score">${escapeHtml(scoreText(score))}</td></tr>`,
      ),
  );
  return `<table class="interop-scores"><caption>Interop score: the pairs that succeeded, counting only tasks both sides do</caption>
<tr><th scope="col">interop run</th><th scope="col">behaviour</th><th scope="col">tasks</th><th scope="col">succeeded</th></tr>
${lines.join("\n")}
</table>`;
}
