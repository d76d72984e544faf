/**
 * `sxd test-client --manual`: for a client no command can drive (a phone app, a desktop
 * program), sxd prepares what each task is about and tells the person at the client what to
 * do and where; what arrives until they say they are done is split into the tasks' runs
 * (recorded.ts) and graded like any run.
 */
import { type ClientServers, type TaskName, taskSubject } from "./tasks.ts";

const WHAT: Record<TaskName, (url: string, title: string) => string> = {
  "digest-get": (url) => `read ${url} (Digest authentication)`,
  "digest-post": (url) => `send a body to ${url} with POST (Digest authentication)`,
  update: (url, title) => `set the title of the entry ${url} to "${title}"`,
  history: (url) => `show every version of the entry ${url} (the newest first)`,
  export: (url) => `export the contacts of the list ${url} to the messaging server`,
};

/** The instructions, one task a line; each task's subject is prepared on sxd's servers as this is written. */
export function manualInstructions(tasks: readonly TaskName[], servers: ClientServers, endsAfterS: number): string {
  const lines = tasks.map((task, index) => {
    const subject = taskSubject(task, servers);
    return `  ${index + 1}. ${task}: ${WHAT[task](subject.url, subject.title)}`;
  });
  return [
    "sxd test-client --manual: sxd's servers are listening.",
    `  the user: ${servers.user.username}, password ${servers.user.password}`,
    `  servers: ${servers.urls.base} (entries, protected resource), ${servers.urls.contacts} (contacts), ${servers.urls.messaging} (messaging)`,
    "With the client, do each task you want judged (skip the ones it does not do):",
    ...lines,
    `Then press Enter (or Ctrl-C). sxd stops listening after ${endsAfterS} s in any case.`,
    "",
  ].join("\n");
}
