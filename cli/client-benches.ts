/**
 * The benches a client runs against: recording references, one per run that may go at once,
 * each with its own ports, recording, staging and entries, so that runs going side by side
 * never see each other's requests.
 */
import type { ClientBench } from "../harness/client/run.ts";
import { mostRunsOf, type TaskName } from "../harness/client/tasks.ts";
import { CLIENT_CONTACT_LIST_PATH, CLIENT_PROTECTED_PATH, startRecordingReference } from "../reference/index.ts";

export interface ClientBenches {
  benches: ClientBench[];
  /** Who the client logs in as, on every bench. */
  user: ClientBench["user"];
  close(): Promise<void>;
}

/** As many benches as `atOnce` asks, and no more than the tasks can ever keep busy together. */
export async function startClientBenches(atOnce: number, tasks: readonly TaskName[]): Promise<ClientBenches> {
  const count = Math.max(
    1,
    Math.min(
      atOnce,
      tasks.reduce((sum, task) => sum + mostRunsOf(task), 0),
    ),
  );
  const started = await Promise.allSettled(
    Array.from({ length: count }, () => startRecordingReference({ host: "127.0.0.1" })),
  );
  const references = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const close = async () => {
    await Promise.all(references.map((reference) => reference.close()));
  };
  const refused = started.find((result) => result.status === "rejected");
  if (refused) {
    await close();
    throw refused.reason;
  }
  // A recording reference is a bench, with the paths the tasks are about.
  const benches = references.map((reference) => ({
    ...reference,
    protectedPath: CLIENT_PROTECTED_PATH,
    contactListPath: CLIENT_CONTACT_LIST_PATH,
  }));
  const [first] = benches;
  if (!first) throw new Error("no bench was started");
  return { benches, user: first.user, close };
}
