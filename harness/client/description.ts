/**
 * The client description (`sxd test-client --config client.json`): what a client's authors
 * state about the options the client rows leave to it. Silence is not "no": a row whose key
 * is left out is observed where it can be, and otherwise not run, with the key to set; a key
 * saying the client does without the option makes the row not applicable; a key claiming it
 * makes the row a rule the client is judged by.
 *
 *   { "digest": { "checksRspauth": true, "retriesStale": true }, "export": { "fallback": true } }
 */

import type { Static } from "typebox";
import { parseJsonText } from "../../lib/json-text.ts";
import type { Result } from "../../lib/result.ts";
import { checkDocument } from "../description/schema-check.ts";
import type { CLIENT_SCHEMA } from "../description/schemas/client.ts";
import { failed, type Grade, notRun } from "../evidence/client-evidence.ts";

/** What a client's authors state (harness/description/schemas/client.ts says what each key means). */
export type ClientDescription = Omit<Static<typeof CLIENT_SCHEMA>, "$schema" | "$comment">;

/** A claim the description makes, by its dotted key: true, false, or undefined where it is silent. */
export type ClaimKey = "digest.checksRspauth" | "digest.retriesStale" | "export.fallback";

export function claimOf(description: ClientDescription, key: ClaimKey): boolean | undefined {
  const [group, name] = key.split(".") as [keyof ClientDescription, string];
  return (description[group] as Record<string, boolean | undefined> | undefined)?.[name];
}

/** Parses and checks the text of a client description; the message names the first bad key. */
export function parseClientDescription(text: string, where: string): Result<ClientDescription> {
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { ok: false, error: `${where}${parsed.place}: not valid JSON (${parsed.reason})` };
  return checkDocument<ClientDescription>("client", parsed.value, where);
}

/**
 * A MAY row's grade as the description has it. Claimed (true): a client observed not taking
 * the option fails, as it claims it does. Disclaimed (false): not applicable, whatever was
 * seen. Unstated: the observation stands, and says which key would make it a rule.
 */
export function asClaimed(observed: Grade, description: ClientDescription, key: ClaimKey): Grade {
  const claim = claimOf(description, key);
  if (claim === false) return disclaimed(key);
  if (claim === true)
    return observed.status === "not applicable"
      ? failed(`${observed.reason}; the client description states ${key}: true, so it is judged as claimed`)
      : observed;
  if (observed.status === "not run") return observed;
  return {
    ...observed,
    reason: `${observed.reason} (observed: the client description does not state ${key}; set it to true or false)`,
  };
}

/** A row that only a claim makes sxd stage: where the description is silent or disclaims it, the grade it gets instead. */
export function unclaimed(description: ClientDescription, key: ClaimKey): Grade | undefined {
  const claim = claimOf(description, key);
  if (claim === true) return undefined;
  return claim === false
    ? disclaimed(key)
    : notRun(`the client description does not state ${key}: set it to true or false (--config client.json)`);
}

const disclaimed = (key: ClaimKey): Grade => ({
  status: "not applicable",
  reason: `the client description states ${key}: false (it does without this option)`,
});
