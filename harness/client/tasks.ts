/**
 * The tasks a client is asked to do, each with the environment of the contract and the
 * conditions sxd stages by running it again. Only the tasks sxd can grade are offered.
 */
import type { StagedCondition } from "../../lib/recording.ts";
import type { ClientUser } from "./evidence.ts";

export const OFFERED_TASKS = ["digest-get", "digest-post"] as const;
export type TaskName = (typeof OFFERED_TASKS)[number];

export function isTaskName(name: string): name is TaskName {
  return (OFFERED_TASKS as readonly string[]).includes(name);
}

/** What sxd's servers offer a client: their URLs, the user, and the protected resource of the digest tasks. */
export interface ClientServers {
  urls: { base: string; contacts: string; messaging: string };
  user: ClientUser;
  protectedPath: string;
}

/** What digest-post sends; the reply echoes it. */
export const POST_BODY = "<note>posted by an sxd client task: état 1</note>";

const CONDITIONS: Record<TaskName, StagedCondition[]> = {
  "digest-get": ["wrong-credentials"],
  "digest-post": [],
};

export function conditionsOf(task: TaskName): StagedCondition[] {
  return CONDITIONS[task];
}

/** The contract's environment for one task (SXD_PASSWORD included: the client needs it). */
export function taskEnvironment(task: TaskName, servers: ClientServers): Record<string, string> {
  return {
    SXD_TASK: task,
    SXD_URL: `${servers.urls.base}${servers.protectedPath}`,
    SXD_USERNAME: servers.user.username,
    SXD_PASSWORD: servers.user.password,
    SXD_TITLE: "",
    SXD_BODY: task === "digest-post" ? POST_BODY : "",
    SXD_BASE_URL: servers.urls.base,
    SXD_CONTACTS_URL: servers.urls.contacts,
    SXD_MESSAGING_URL: servers.urls.messaging,
  };
}
