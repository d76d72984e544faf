/** `sxd serve`: the reference servers, in the foreground until interrupted. */
import { parseArgs } from "node:util";
import { UsageError } from "../harness/errors.ts";
import type { NoncePolicy } from "../lib/digest-math.ts";
import { isAbsoluteUri, isHttpUrl } from "../lib/uri.ts";
import {
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_PORTS,
  DEFAULT_STORAGE_LIMITS,
  DEMO_USER,
  FAULTS,
  type FaultInfo,
  REALM,
  referenceMode,
  SERVER_NAMES,
  type ServerName,
  startReference,
} from "../reference/index.ts";
import { optionsHelp } from "./options.ts";

const SERVE_OPTIONS = {
  host: { type: "string", help: "address to listen on (default: 127.0.0.1)" },
  port: { type: "string", help: `port of the base server (default: ${DEFAULT_PORTS.base}; 0 picks a free one)` },
  "contacts-port": { type: "string", help: `port of the contacts server (default: ${DEFAULT_PORTS.contacts})` },
  "messaging-port": { type: "string", help: `port of the messaging server (default: ${DEFAULT_PORTS.messaging})` },
  "public-url": { type: "string", help: "public URL of the base server, for absolute links behind a proxy" },
  "contacts-url": {
    type: "string",
    help: "public URL of the contacts server (where it is not started here, where it is)",
  },
  "messaging-url": {
    type: "string",
    help: "public URL of the messaging server (where it is not started here, where it is)",
  },
  users: { type: "string", help: "htdigest file of the protected resources' users (default: a demo user)" },
  "nonce-policy": { type: "string", help: "digest nonce use: one-time (default), unlimited, or a number of uses" },
  "digest-algorithms": {
    type: "string",
    help: "hashes offered, in order, e.g. MD5 or SHA-256,MD5 (default: SHA-256,MD5 less any the users file lacks)",
  },
  "digest-qop": { type: "string", help: "qop values offered, e.g. auth (default: auth,auth-int)" },
  "max-bytes": {
    type: "string",
    help: `bytes the snapshot store may hold in all (default: ${DEFAULT_STORAGE_LIMITS.maxBytes}); then 507`,
  },
  "max-resources": {
    type: "string",
    help: `resources the snapshot store may hold (default: ${DEFAULT_STORAGE_LIMITS.maxResources})`,
  },
  "max-snapshots": {
    type: "string",
    help: `snapshots one resource may keep (default: ${DEFAULT_STORAGE_LIMITS.maxSnapshots})`,
  },
  "max-connections": {
    type: "string",
    help: `connections each server keeps open at once (default: ${DEFAULT_MAX_CONNECTIONS})`,
  },
  contacts: { type: "string", help: 'JSON fixture of the contacts server: { "alice": [ {...}, ... ] }' },
  "backend-path": {
    type: "string",
    help: "the backend request of an export, e.g. '/internal/export/{user}?t={token}' (default: /user/{user}/contacts, no token)",
  },
  "backend-method": { type: "string", help: "its method (default: GET)" },
  "backend-token-header": { type: "string", help: "a header carrying the token to the contacts server" },
  "export-rel": {
    type: "string",
    help: "the relation URI of the contacts server's export link (default: https://sxd.example/rel/export-to-messaging)",
  },
  fault: { type: "string", multiple: true, help: "misbehave on purpose (repeatable); --fault list shows them" },
  variant: { type: "string", help: "standard (default) or alternative: the other choices the spec allows" },
  help: { type: "boolean", short: "h", help: "show this help" },
} as const;

/** How long SIGTERM lets requests in flight run before their connections are closed. */
const SHUTDOWN_GRACE_MS = 10_000;

export const SERVE_HELP = `Usage: sxd serve [base] [contacts] [messaging] [options]

Runs the reference servers (all three when none is named) and prints their URLs.
Everything is kept in memory: a restart starts empty. Stop with Ctrl-C, or SIGTERM,
which lets requests in flight finish (up to ${SHUTDOWN_GRACE_MS / 1000} s). The contacts and messaging
servers check export tokens with a shared key: when they run as separate processes,
give both the same SXD_TOKEN_KEY.

Options:
${optionsHelp(SERVE_OPTIONS)}
`;

export async function runServe(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseServeArgs>;
  try {
    parsed = parseServeArgs(argv);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(SERVE_HELP);
    return 0;
  }
  const faults = values.fault ?? [];
  if (faults.includes("list")) {
    for (const [name, info] of Object.entries(FAULTS) as [string, FaultInfo][]) {
      process.stdout.write(`${name.padEnd(32)} breaks ${info.breaks.join(", ")}: ${info.description}\n`);
    }
    return 0;
  }
  const mode = referenceMode(faults, values.variant);
  if (!mode.ok) throw new UsageError(mode.error);
  const unknownServer = positionals.find((p) => !(SERVER_NAMES as readonly string[]).includes(p));
  if (unknownServer) throw new UsageError(`unknown server "${unknownServer}": name base, contacts or messaging`);
  for (const flag of ["public-url", "contacts-url", "messaging-url"] as const) {
    const url = values[flag];
    if (url !== undefined && !isHttpUrl(url)) throw new UsageError(`--${flag} must be an http(s) URL, got "${url}"`);
  }
  const servers = (positionals.length > 0 ? positionals : SERVER_NAMES) as ServerName[];
  const reference = await startReference({
    host: values.host ?? "127.0.0.1",
    ports: {
      base: port(values.port, DEFAULT_PORTS.base, "--port"),
      contacts: port(values["contacts-port"], DEFAULT_PORTS.contacts, "--contacts-port"),
      messaging: port(values["messaging-port"], DEFAULT_PORTS.messaging, "--messaging-port"),
    },
    publicUrls: { base: values["public-url"], contacts: values["contacts-url"], messaging: values["messaging-url"] },
    servers,
    ...mode.value,
    digestUsersFile: values.users,
    noncePolicy: noncePolicy(values["nonce-policy"]),
    digestHashes: listOf(values["digest-algorithms"], ["SHA-256", "MD5"] as const, "--digest-algorithms"),
    digestQops: listOf(values["digest-qop"], ["auth", "auth-int"] as const, "--digest-qop"),
    storage: {
      maxBytes: count(values["max-bytes"], DEFAULT_STORAGE_LIMITS.maxBytes, "--max-bytes"),
      maxResources: count(values["max-resources"], DEFAULT_STORAGE_LIMITS.maxResources, "--max-resources"),
      maxSnapshots: count(values["max-snapshots"], DEFAULT_STORAGE_LIMITS.maxSnapshots, "--max-snapshots"),
    },
    maxConnections: count(values["max-connections"], DEFAULT_MAX_CONNECTIONS, "--max-connections"),
    contactsFile: values.contacts,
    backend: backendOf(values["backend-path"], values["backend-method"], values["backend-token-header"]),
    exportRel: exportRel(values["export-rel"]),
  }).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(
      `cannot start the reference: ${error.code === "EADDRINUSE" ? `port in use (${error.message})` : error.message}`,
    );
  });
  const label: Record<ServerName, string> = {
    base: "snapshots and protected resources",
    contacts: "contacts server",
    messaging: "messaging server",
  };
  for (const name of servers) process.stdout.write(`${label[name].padEnd(36)} ${reference.urls[name]}\n`);
  if (servers.includes("base")) {
    const who = values.users ? `users from ${values.users}` : `demo user ${DEMO_USER.username} / ${DEMO_USER.password}`;
    process.stdout.write(`digest: ${reference.urls.base}/protected, realm ${REALM}, ${who}\n`);
  }
  if (faults.length > 0) process.stdout.write(`faults: ${faults.join(", ")}\n`);
  const signal = await new Promise<NodeJS.Signals>((done) => {
    process.once("SIGINT", done);
    process.once("SIGTERM", done);
  });
  await reference.close(signal === "SIGTERM" ? SHUTDOWN_GRACE_MS : 0);
  return 0;
}

function parseServeArgs(argv: string[]) {
  return parseArgs({ args: argv, options: SERVE_OPTIONS, allowPositionals: true, strict: true });
}

function noncePolicy(text: string | undefined): NoncePolicy | undefined {
  if (text === undefined || text === "one-time" || text === "unlimited") return text;
  const uses = Number(text);
  if (!Number.isInteger(uses) || uses < 1) {
    throw new UsageError(`--nonce-policy must be one-time, unlimited or a number of uses, got "${text}"`);
  }
  return { uses };
}

/** Comma-separated names out of `known`, in the order given; none repeated. */
function listOf<T extends string>(text: string | undefined, known: readonly T[], flag: string): T[] | undefined {
  if (text === undefined) return undefined;
  const names = text.split(",").map((name) => name.trim());
  const unknown = names.find((name) => !(known as readonly string[]).includes(name));
  if (unknown !== undefined || new Set(names).size !== names.length) {
    throw new UsageError(`${flag} takes a comma-separated list of ${known.join(", ")} without repeats, got "${text}"`);
  }
  return names as T[];
}

function count(text: string | undefined, fallback: number, flag: string): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`${flag} must be a positive whole number, got "${text}"`);
  return n;
}

function port(text: string | undefined, fallback: number, flag: string): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UsageError(`${flag} must be a port number, got "${text}"`);
  return n;
}

function exportRel(text: string | undefined): string | undefined {
  if (text === undefined || isAbsoluteUri(text)) return text;
  throw new UsageError(`--export-rel must be an absolute URI, e.g. "https://example.org/rels/export", got "${text}"`);
}

/** The backend request as the flags describe it (as export.backend does in a target description). */
function backendOf(path: string | undefined, method: string | undefined, tokenHeader: string | undefined) {
  if (path === undefined) {
    if (method !== undefined || tokenHeader !== undefined)
      throw new UsageError("--backend-method and --backend-token-header need --backend-path");
    return undefined;
  }
  if (!path.startsWith("/") || !path.includes("{user}"))
    throw new UsageError(
      `--backend-path must be a path with {user}, e.g. "/internal/export/{user}?t={token}", got "${path}"`,
    );
  return { path, ...(method ? { method } : {}), ...(tokenHeader ? { tokenHeader } : {}) };
}
