/**
 * The reference servers' one door: start them, name their faults, and say what they are,
 * as a target description would. Nothing outside reference/ reaches past this file.
 *
 *   const reference = await startReference({ host: "127.0.0.1", ports: { base: 0, contacts: 0, messaging: 0 } });
 *   // … reference.urls.base …
 *   await reference.close();
 */
import type { NoncePolicy } from "../lib/digest-math.ts";
import type { Result } from "../lib/result.ts";
import type { Variant } from "./context.ts";
import { DEFAULT_LIFETIME_MS } from "./digest/nonces.ts";
import { DEFAULT_NONCE_POLICY, DEMO_USER, PROTECTED_PATH, REALM } from "./digest/routes.ts";
import { longListUser } from "./export/contact-list.ts";
import { type FaultName, isFaultName } from "./faults.ts";
import { COLLECTION } from "./snapshots/chain.ts";

export type { Variant } from "./context.ts";
export type { FaultInfo } from "./fault-info.ts";
export { FAULTS, type FaultName, isFaultName } from "./faults.ts";
export { DEFAULT_MAX_CONNECTIONS } from "./http/serve.ts";
export { type PeerOptions, type PeerSide, type RunningPeer, startPeer } from "./peer.ts";
export {
  DEFAULT_PORTS,
  type ReferenceOptions,
  type RunningReference,
  SERVER_NAMES,
  type ServerName,
  startReference,
} from "./server.ts";
export { DEFAULT_STORAGE_LIMITS } from "./snapshots/store.ts";
export { DEMO_USER, REALM };

/**
 * The reference described in the target description's terms, without its URLs: where its
 * resources are, its demo user, and the options it takes. examples/reference.json says the
 * same for `sxd serve` (a test holds the three together).
 */
export const REFERENCE_DESCRIPTION = {
  snapshots: { collection: COLLECTION },
  digest: {
    path: PROTECTED_PATH,
    username: DEMO_USER.username,
    password: DEMO_USER.password,
    noncePolicy: DEFAULT_NONCE_POLICY as NoncePolicy,
    nonceLifetime: DEFAULT_LIFETIME_MS / 1000,
  },
  export: { user: "alice", otherUser: "bob", upload: { method: "POST", path: "/user/{user}/contacts" } },
};

/** The lengths of the long contact lists the bundled reference makes for `sxd limits` (LIM-5). */
export const LONG_LISTS: readonly number[] = [10, 100, 1000];

/** The description's export.longLists of a reference started with these `longLists`. */
export function longListsDescribed(lengths: readonly number[]): Array<{ user: string; contacts: number }> {
  return lengths.map((contacts) => ({ user: longListUser(contacts), contacts }));
}

/** Checks fault names and a variant as a user typed them; the error names the first unknown one. */
export function referenceMode(
  faults: readonly string[],
  variant = "standard",
): Result<{ faults: FaultName[]; variant: Variant }> {
  const unknown = faults.find((f) => !isFaultName(f));
  if (unknown !== undefined)
    return { ok: false, error: `unknown fault "${unknown}" (sxd serve --fault list shows them)` };
  if (variant !== "standard" && variant !== "alternative")
    return { ok: false, error: `unknown variant "${variant}": standard or alternative` };
  return { ok: true, value: { faults: faults.filter(isFaultName), variant } };
}
export {
  CLIENT_CONTACT_LIST_PATH,
  CLIENT_PROTECTED_PATH,
  type RecordingReference,
  startRecordingReference,
} from "./recorder.ts";
