/**
 * How an interop matrix reads by behaviour, for the HTML matrix (report/) and the spec site
 * (docs/) alike: which tasks exercise which behaviour, and the interop score, the share of cells
 * that succeeded among those where both sides do the task (a client that does not do it, or a
 * server that does not serve it, says nothing about whether the two work together).
 */
import type { InteropCell, InteropDocument, InteropTask } from "./interop-document.ts";

export interface TaskGroup {
  /** The server behaviour's page on the site (its client rows are on `client-<slug>`). */
  slug: "digest" | "snapshots" | "export";
  title: string;
  tasks: InteropTask[];
}

export const TASK_GROUPS: TaskGroup[] = [
  { slug: "digest", title: "Digest authentication", tasks: ["digest-get", "digest-post"] },
  { slug: "snapshots", title: "Snapshots on update", tasks: ["update", "history"] },
  { slug: "export", title: "Export by link", tasks: ["export"] },
];

/** The group a site page's behaviour belongs to: `client-digest` and `digest` are one. */
export function taskGroupOf(behaviourSlug: string): TaskGroup | undefined {
  return TASK_GROUPS.find((group) => group.slug === behaviourSlug.replace(/^client-/, ""));
}

export interface InteropScore {
  group: TaskGroup;
  succeeded: number;
  /** Cells that ran: succeeded or failed. */
  counted: number;
  /** succeeded / counted, undefined where no cell counts. */
  share?: number;
}

/** Whether both sides do the cell's task: neither unsupported by the client nor not served by the server. */
export function bothSidesDoIt(cell: InteropCell): boolean {
  return cell.result === "succeeded" || cell.result === "failed";
}

export function interopScores(doc: InteropDocument): InteropScore[] {
  return TASK_GROUPS.map((group) => {
    const counted = doc.cells.filter((cell) => group.tasks.includes(cell.task) && bothSidesDoIt(cell));
    const succeeded = counted.filter((cell) => cell.result === "succeeded").length;
    return {
      group,
      succeeded,
      counted: counted.length,
      share: counted.length === 0 ? undefined : succeeded / counted.length,
    };
  });
}

/** "7 of 10 (70%)", or a sentence where no cell counts. */
export function scoreText(score: InteropScore): string {
  if (score.share === undefined) return "no pair where both sides do it";
  return `${score.succeeded} of ${score.counted} (${Math.round(score.share * 100)}%)`;
}
