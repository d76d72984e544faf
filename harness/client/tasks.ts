/**
 * The tasks a client is asked to do, each with the environment of the contract and the
 * conditions sxd stages by running it again. Only the tasks sxd can grade are offered.
 */

import { digestAnswers } from "../../lib/digest-answers.ts";
import type { Offer, StagedCondition, Staging } from "../../lib/recording.ts";
import { type ClientUser, NOT_SUPPORTED, offerOf, type TaskRun } from "../evidence/client-evidence.ts";
import { type ClaimKey, type ClientDescription, claimOf } from "./description.ts";

export const OFFERED_TASKS = ["digest-get", "digest-post", "update", "history", "export"] as const;
export type TaskName = (typeof OFFERED_TASKS)[number];

export function isTaskName(name: string): name is TaskName {
  return (OFFERED_TASKS as readonly string[]).includes(name);
}

/** What sxd's servers offer a client: their URLs, the user, the protected resource of the digest tasks, and entries. */
export interface ClientServers {
  urls: { base: string; contacts: string; messaging: string };
  user: Required<ClientUser>;
  protectedPath: string;
  /** The contact list of the export task, on the contacts server. */
  contactListPath: string;
  /** Makes an entry with one version per title, oldest first, and returns its URL. */
  prepareEntry(titles: readonly string[]): string;
}

/** What one run of a task is about: SXD_URL, SXD_TITLE, SXD_BODY, and what a right run prints. */
export interface TaskSubject {
  url: string;
  title: string;
  body: string;
  expectedOutput?: string[];
}

/** The versions of the history task's entry, oldest first. */
const HISTORY = ["First version", "Second version", "Third version"];

/** What digest-post sends; the reply echoes it. */
export const POST_BODY = "<note>posted by an sxd client task: état 1</note>";

/**
 * How sxd runs a task again, each run a case of its own. A condition's control is the weakest
 * that keeps it meaningful: the client does the task (it did not exit 127), and for the ones
 * that meet an answer to a challenge, it answered one. Those are staged on the first offer
 * the client answered, so that a client which answers only MD5 meets them too.
 */
interface Plan {
  /** Staged whenever the client does the task. */
  always: readonly StagedCondition[];
  /** Tried in turn while the client has answered no challenge of the task. */
  untilAnswered: readonly Offer[];
  /** Staged on the first offer the client answered; not at all where it answered none. */
  onAnswered: readonly StagedCondition[];
}

const NONE: Plan = { always: [], untilAnswered: [], onAnswered: [] };

const PLANS: Record<TaskName, Plan> = {
  "digest-get": {
    ...NONE,
    always: ["md5-first", "md5-only"],
    onAnswered: ["wrong-credentials", "stale-nonce", "wrong-rspauth"],
  },
  "digest-post": { ...NONE, untilAnswered: ["md5-first", "md5-only"], onAnswered: ["auth-int-only"] },
  update: { ...NONE, always: ["precondition-failed"] },
  history: NONE,
  export: { ...NONE, always: ["no-export-link", "import-fails"] },
};

/** The most runs a task can come to: the plain one and each condition its plan may stage. */
export function mostRunsOf(task: TaskName): number {
  const plan = PLANS[task];
  return 1 + plan.always.length + plan.untilAnswered.length + plan.onAnswered.length;
}

/** The conditions that only a claim of the description makes sxd stage (nothing to observe without it). */
const CLAIMED: Partial<Record<StagedCondition, ClaimKey>> = {
  "no-export-link": "export.fallback",
  "import-fails": "export.fallback",
};

/** A run of a task that was started and has not ended: what was staged is known, not what the client did. */
export interface PendingRun extends Staging {
  pending: true;
}

/** The next run cannot be chosen until a run still going has ended. */
export const WAIT = "wait";

/**
 * The run of a task sxd stages next, for a client so described, given the runs so far in order
 * (the plain one first); undefined when there is none. Some of those runs may still be going:
 * then the answer is what it will be whatever they do, or WAIT where it depends on them. So the
 * runs chosen while others go are the very runs, in the very order, that one at a time gives.
 */
export function nextStaging(
  task: TaskName,
  runs: readonly (TaskRun | PendingRun)[],
  description: ClientDescription = {},
): Staging | undefined | typeof WAIT {
  const plain = runs[0];
  if (plain && "pending" in plain) return WAIT;
  if (plain?.exitCode === NOT_SUPPORTED) return undefined;
  const plan = PLANS[task];
  const done = (condition: StagedCondition) => runs.some((run) => run.condition === condition);
  const claimed = (condition: StagedCondition) => {
    const claim = CLAIMED[condition];
    return claim === undefined || claimOf(description, claim) === true;
  };
  const always = plan.always.find((condition) => !done(condition) && claimed(condition));
  if (always) return { condition: always };
  const answered = firstAnswered(runs);
  if (answered === WAIT) return WAIT;
  if (!answered) {
    const offer = plan.untilAnswered.find((condition) => !done(condition));
    return offer && { condition: offer };
  }
  const next = plan.onAnswered.find((condition) => !done(condition) && claimed(condition));
  const offer = offerOf(answered);
  return next && { condition: next, ...(offer ? { offer } : {}) };
}

/** The first run that answered a challenge; WAIT where a run before any such is still going. */
function firstAnswered(runs: readonly (TaskRun | PendingRun)[]): TaskRun | undefined | typeof WAIT {
  for (const run of runs) {
    if ("pending" in run) return WAIT;
    if (digestAnswers(run.requests).length > 0) return run;
  }
  return undefined;
}

/** Prepares what a run of the task is about: a fresh entry for update and history. */
export function taskSubject(task: TaskName, servers: ClientServers): TaskSubject {
  const digest = { url: `${servers.urls.base}${servers.protectedPath}`, title: "", body: "" };
  switch (task) {
    case "digest-get":
      return digest;
    case "digest-post":
      return { ...digest, body: POST_BODY };
    case "update":
      return {
        url: servers.prepareEntry(["An entry to update"]),
        title: `Retitled by the client, ${Date.now()}`,
        body: "",
      };
    case "history":
      return { url: servers.prepareEntry(HISTORY), title: "", body: "", expectedOutput: [...HISTORY].reverse() };
    case "export":
      return { url: `${servers.urls.contacts}${servers.contactListPath}`, title: "", body: "" };
  }
}

/** The contract's environment for one run of a task (SXD_PASSWORD included: the client needs it). */
export function taskEnvironment(task: TaskName, servers: ClientServers, subject: TaskSubject): Record<string, string> {
  return {
    SXD_TASK: task,
    SXD_URL: subject.url,
    SXD_USERNAME: servers.user.username,
    SXD_PASSWORD: servers.user.password,
    SXD_TITLE: subject.title,
    SXD_BODY: subject.body,
    SXD_BASE_URL: servers.urls.base,
    SXD_CONTACTS_URL: servers.urls.contacts,
    SXD_MESSAGING_URL: servers.urls.messaging,
  };
}
