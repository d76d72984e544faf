/**
 * The tasks a client is asked to do, each with the environment of the contract and the
 * conditions sxd stages by running it again. Only the tasks sxd can grade are offered.
 */
import type { StagedCondition } from "../../lib/recording.ts";
import { type ClaimKey, type ClientDescription, claimOf } from "./description.ts";
import type { ClientUser } from "./evidence.ts";

export const OFFERED_TASKS = ["digest-get", "digest-post", "update", "history", "export"] as const;
export type TaskName = (typeof OFFERED_TASKS)[number];

export function isTaskName(name: string): name is TaskName {
  return (OFFERED_TASKS as readonly string[]).includes(name);
}

/** What sxd's servers offer a client: their URLs, the user, the protected resource of the digest tasks, and entries. */
export interface ClientServers {
  urls: { base: string; contacts: string; messaging: string };
  user: ClientUser;
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

const CONDITIONS: Record<TaskName, StagedCondition[]> = {
  "digest-get": ["wrong-credentials", "stale-nonce", "md5-first", "md5-only", "wrong-rspauth"],
  "digest-post": [],
  update: ["precondition-failed"],
  history: [],
  export: ["no-export-link", "import-fails"],
};

/** The conditions that only a claim of the description makes sxd stage (nothing to observe without it). */
const CLAIMED: Partial<Record<StagedCondition, ClaimKey>> = {
  "no-export-link": "export.fallback",
  "import-fails": "export.fallback",
};

/** The conditions sxd stages by running the task again, for a client so described. */
export function conditionsOf(task: TaskName, description: ClientDescription = {}): StagedCondition[] {
  return CONDITIONS[task].filter((condition) => {
    const claim = CLAIMED[condition];
    return claim === undefined || claimOf(description, claim) === true;
  });
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
