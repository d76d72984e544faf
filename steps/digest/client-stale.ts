/**
 * CDIG-6 and CDIG-8, two MAYs observed, never failed.
 *
 * CDIG-6: on a 401 with stale=true the client may answer again with the new nonce,
 * without new credentials (RFC 7616 §3.3: it "may wish to simply retry"). Observed on the run
 * where sxd called the client's first right answer stale; never failed or warned: a client that
 * gives up is reported as not taking the option, with what it did. Its control is the right
 * answer that sxd called stale, in that run.
 */

import {
  type ClientUser,
  endOf,
  type Grade,
  notRun,
  passed,
  type TaskRun,
} from "../../harness/evidence/client-evidence.ts";
import { digestAnswers, issuedChallenges } from "../../lib/digest-answers.ts";
import { answersIn, provesSecret } from "./client-grades.ts";

const isStale = (field: string | string[] | undefined) => /stale\s*=\s*"?true/i.test(String(field ?? ""));

/** " (see CDIG-1)" or " (see CDIG-2)" where the runs show that row failing, else "": a pointer only to a row that failed. */
export function failedRowIn(runs: readonly TaskRun[], user: ClientUser): string {
  const answers = answersIn(runs);
  if (answers.length === 0) return " (see CDIG-1)";
  return answers.some(({ answer }) => provesSecret(answer, user)) ? "" : " (see CDIG-2)";
}

export function gradeStaleRetry(run: TaskRun, user: ClientUser): Grade {
  const answers = digestAnswers(run.requests);
  const staled = answers.find(
    (a) => a.request.reply.status === 401 && isStale(a.request.reply.headers["www-authenticate"]),
  );
  if (!staled)
    return notRun(
      `the client sent no right credentials that sxd could call stale (${endOf(run)})${failedRowIn([run], user)}`,
    );
  const fresh = issuedChallenges([staled.request]);
  const retry = answers.find((a) => a.number > staled.number && fresh.has(a.params.get("nonce") ?? ""));
  const gaveUp = (what: string) => ({
    status: "not applicable" as const,
    reason: `after the 401 with stale=true to request ${staled.number}, ${what} (${endOf(run)}). RFC 7616 §3.3 leaves the retry to the client, so this is not failed; but such a client fails wherever nonces expire`,
  });
  if (!retry) return gaveUp("the client did not answer again with the new nonce");
  if (!provesSecret(retry, user))
    return gaveUp(`request ${retry.number} answered with the new nonce but not from the same secret`);
  return passed(
    `after the 401 with stale=true, the client answered again with the new nonce (request ${retry.number}, answered ${retry.request.reply.status})`,
  );
}

/**
 * CDIG-8, a MAY: the client checks rspauth and treats a reply whose rspauth does not prove the
 * secret as a failure. Observed on the run where sxd's grant carried a wrong rspauth: a client
 * that exits non-zero there (having exited 0 on the same offer without the condition, its
 * control) takes the option; one that exits 0 does not check, which is reported, never failed.
 */
export function gradeRspauthChecked(run: TaskRun, control: TaskRun, user: ClientUser): Grade {
  if (control.exitCode !== 0)
    return notRun(
      `the same task on the same offer, with a right rspauth, did not succeed (${endOf(control)})${failedRowIn([control], user)}`,
    );
  const granted = run.requests.find(
    (r) => r.reply.status < 300 && r.reply.headers["authentication-info"] !== undefined,
  );
  if (!granted) return notRun(`no reply with the wrong rspauth reached the client (${endOf(run)})`);
  if (run.exitCode === 0)
    return {
      status: "not applicable",
      reason: `the client accepted a reply whose rspauth does not prove the secret (${endOf(run)}): it does not check rspauth, so it cannot tell sxd from an impostor`,
    };
  return passed(`the client treated the reply with a wrong rspauth as a failure (${endOf(run)})`);
}
