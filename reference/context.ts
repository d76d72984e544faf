/** What every reference module is given: where the servers are, and how to misbehave. */
import type { HashName, NoncePolicy, Qop } from "../lib/digest-math.ts";
import type { BackendRequest, BackendSeen, BackendSent } from "../lib/export-backend.ts";
import type { FaultName } from "./faults.ts";
import type { StorageLimits } from "./snapshots/store.ts";

export type Variant = "standard" | "alternative";

export interface ExportUsers {
  user: string;
  otherUser?: string;
}

export interface ServerUrls {
  /** Public base URLs, without a trailing slash: what absolute links are built from. */
  base: string;
  contacts: string;
  messaging: string;
}

export interface ReferenceContext {
  urls: ServerUrls;
  faults: ReadonlySet<FaultName>;
  /**
   * `alternative` makes the other allowed choice wherever the spec says "not shown", so
   * the suite can prove it does not mistake our choices for the spec's rules.
   */
  variant: Variant;
  /**
   * Export: the secret the contacts and messaging servers share to sign and check link
   * tokens. Default: `SXD_TOKEN_KEY`, else a random key per process.
   */
  tokenKey?: string;
  /** Export: the contacts server's fixture (user → contacts); default `reference/export/contacts.json`. */
  contactsFile?: string;
  /**
   * Export: the users a target description names (export.user, export.otherUser), for sxd's
   * own server standing in for the other side (`sxd test --peer`): its contacts server serves
   * the fixture's first two lists (alice's, bob's) under these names and no others, and both
   * servers take these names whatever characters they hold.
   */
  exportUsers?: ExportUsers;
  /**
   * Export: beside the fixture's users, a user `long-<N>` for each N here whose list holds N
   * generated contacts, for measuring how an export's cost grows with its list (sxd limits, LIM-5).
   */
  longLists?: readonly number[];
  /** Export: the relation of the export link; default the variant's (export/choices.ts). */
  exportRel?: string;
  /** Export: how long the messaging server waits for the contacts server (default 3000 ms). */
  backendTimeoutMs?: number;
  /** Export: how the messaging server asks the contacts server for the list; default DEFAULT_BACKEND. */
  backend?: BackendRequest;
  /**
   * Export: the messaging server leaves the token to the contacts server, which the backend
   * request presents it to (sxd standing in for a team's contacts server, whose tokens it cannot check).
   */
  tokenCheckedByContactsServer?: boolean;
  /** Export: told of every backend request the contacts server receives, and its reply. */
  onBackendRequest?: (seen: BackendSeen) => void;
  /** Export: told of every backend request the messaging server sends, and its reply. */
  onBackendSent?: (sent: BackendSent) => void;
  /** Digest: an htdigest file of users besides the demo user. */
  digestUsersFile?: string;
  /** Digest: how often a nonce may be used; default one-time. */
  noncePolicy?: NoncePolicy;
  /**
   * Digest: the hashes offered, one challenge each, in this order; default SHA-256 then MD5,
   * less any the users' stored hashes cannot verify.
   */
  digestHashes?: readonly HashName[];
  /** Digest: the qop values offered; default auth, auth-int. */
  digestQops?: readonly Qop[];
  /** Snapshots: what the memory-only store may hold; default DEFAULT_STORAGE_LIMITS. */
  storage?: StorageLimits;
}
