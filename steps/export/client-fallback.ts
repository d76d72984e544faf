/**
 * CEXP-4, the fallback: where the export by link cannot work (sxd serves the contact list
 * without its export link, or answers the POST to it with 503), a client that has the
 * fallback downloads the whole list from /user/<user>/contacts and uploads every contact to
 * the messaging server itself, once. Judged against the list as sxd served it in that run:
 * each of its contacts must be in what the client sent the messaging server exactly once
 * (compared as whole elements, whatever document carries them); none, part, a contact twice or one
 * the list does not hold fails.
 */

import {
  describeRun,
  endOf,
  failed,
  type Grade,
  passed,
  type TaskRun,
} from "../../harness/evidence/client-evidence.ts";
import { contactsAnywhere, countOccurrences } from "../../lib/contacts.ts";

const CONTACT_LIST = /^\/user\/[^/;?]+\/contacts(?:\?|$)/;

/** Every staged run must show the fallback; the first that does not is the grade. */
export function gradeFallback(runs: readonly TaskRun[]): Grade {
  const grades = runs.map((run) => ({ run, grade: gradeFallbackRun(run) }));
  const wrong = grades.find(({ grade }) => grade.status !== "passed");
  if (wrong) return { ...wrong.grade, reason: `${describeRun(wrong.run)}: ${wrong.grade.reason}` };
  return passed(grades.map(({ run, grade }) => `${describeRun(run)}: ${grade.reason}`).join("; "));
}

export function gradeFallbackRun(run: TaskRun): Grade {
  const numbered = run.requests.map((request, index) => ({ number: index + 1, request }));
  const read = numbered.find(
    ({ request }) =>
      !request.bySxd &&
      request.server === "contacts" &&
      request.method === "GET" &&
      request.reply.status === 200 &&
      CONTACT_LIST.test(request.target),
  );
  if (!read) return failed(`the client did not download the contact list from /user/<user>/contacts (${endOf(run)})`);
  const served = contactsAnywhere(read.request.reply.body);
  if (!served.ok) return failed(`the contact list of request ${read.number} cannot be read: ${served.error}`);
  const uploads = numbered.filter(({ request }) => request.server === "messaging" && request.body.length > 0);
  if (uploads.length === 0)
    return failed(
      `after reading the list (request ${read.number}), the client sent the messaging server no contact (${endOf(run)})`,
    );
  const sent = uploads.flatMap(({ request }) => {
    const found = contactsAnywhere(request.body);
    return found.ok ? found.value : [];
  });
  const counts = countOccurrences(served.value, sent);
  const missing = [...counts].filter(([, n]) => n === 0).length;
  const twice = [...counts].filter(([, n]) => n > 1).length;
  const foreign = sent.filter((contact) => !counts.has(contact)).length;
  const where = `request(s) ${uploads.map(({ number }) => number).join(", ")}`;
  const problems = [
    missing > 0 ? `${missing} of the list's ${served.value.length} contact(s) never uploaded` : "",
    twice > 0 ? `${twice} contact(s) uploaded more than once` : "",
    foreign > 0 ? `${foreign} contact(s) the list does not hold` : "",
  ].filter(Boolean);
  if (problems.length > 0) return failed(`${where} to the messaging server: ${problems.join(", ")} (${endOf(run)})`);
  const statuses = uploads.map(({ request }) => request.reply.status).join(", ");
  return passed(
    `the list read (request ${read.number}), its ${served.value.length} contact(s) uploaded once each in ${where} (answered ${statuses})`,
  );
}
