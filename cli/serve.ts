/** `sxd serve`: the reference servers, in the foreground until interrupted. */
import { UsageError, valueOrUsageError } from "../harness/errors.ts";
import type { NoncePolicy } from "../lib/digest-math.ts";
import { type BackendRequest, holdsTokenOnce } from "../lib/export-backend.ts";
import { isAbsoluteUri, isHttpUrl } from "../lib/uri.ts";
import {
  DEMO_USER,
  FAULTS,
  type FaultInfo,
  longListsDescribed,
  REALM,
  referenceMode,
  SERVER_NAMES,
  type ServerName,
  startReference,
} from "../reference/index.ts";
import { commandHelp } from "./help.ts";
import type { CommandIo } from "./io.ts";
import { parseOptions, withDefault } from "./option-parse.ts";
import { type OptionName, SHUTDOWN_GRACE_MS } from "./option-table.ts";

export async function runServe(argv: string[], io: CommandIo): Promise<number> {
  const parsed = parseOptions("serve", argv, io.env, true);
  if (!parsed.ok) throw new UsageError(parsed.error);
  const given = parsed.value;
  const { positionals } = given;
  if (given.help) {
    io.stdout.write(commandHelp("serve"));
    return 0;
  }
  const value = (name: OptionName) => given.valueOr(name);
  const number = (name: OptionName) => valueOrUsageError(given.number(name));
  const faults = given.list("fault");
  if (faults.includes("list")) {
    for (const [name, info] of Object.entries(FAULTS) as [string, FaultInfo][]) {
      const does = info.grows ? `grows ${info.grows.join(", ")}` : `breaks ${info.breaks.join(", ")}`;
      io.stdout.write(`${name.padEnd(32)} ${does}: ${info.description}\n`);
    }
    return 0;
  }
  const mode = referenceMode(faults, value("variant"));
  if (!mode.ok) throw new UsageError(mode.error);
  const unknownServer = positionals.find((p) => !(SERVER_NAMES as readonly string[]).includes(p));
  if (unknownServer) throw new UsageError(`unknown server "${unknownServer}": name base, contacts or messaging`);
  for (const flag of ["public-url", "contacts-url", "messaging-url"] as const) {
    const url = value(flag);
    if (url !== undefined && !isHttpUrl(url)) throw new UsageError(`--${flag} must be an http(s) URL, got "${url}"`);
  }
  const servers = (positionals.length > 0 ? positionals : SERVER_NAMES) as ServerName[];
  const longLists = lengthsOf(value("long-lists"));
  const reference = await startReference({
    host: withDefault("serve", "host", value("host")),
    ports: {
      base: number("port"),
      contacts: number("contacts-port"),
      messaging: number("messaging-port"),
    },
    publicUrls: { base: value("public-url"), contacts: value("contacts-url"), messaging: value("messaging-url") },
    servers,
    ...mode.value,
    digestUsersFile: value("users"),
    noncePolicy: noncePolicy(value("nonce-policy")),
    digestHashes: listOf(value("digest-algorithms"), ["SHA-256", "MD5"] as const, "--digest-algorithms"),
    digestQops: listOf(value("digest-qop"), ["auth", "auth-int"] as const, "--digest-qop"),
    storage: {
      maxBytes: number("max-bytes"),
      maxResources: number("max-resources"),
      maxSnapshots: number("max-snapshots"),
    },
    maxConnections: number("max-connections"),
    contactsFile: value("contacts"),
    longLists,
    backend: backendOf(value("backend-path"), {
      method: value("backend-method"),
      tokenHeader: value("backend-token-header"),
      tokenValue: value("backend-token-value"),
    }),
    exportRel: exportRel(value("export-rel")),
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
  for (const name of servers) io.stdout.write(`${label[name].padEnd(36)} ${reference.urls[name]}\n`);
  if (servers.includes("base")) {
    const who = value("users")
      ? `users from ${value("users")}`
      : `demo user ${DEMO_USER.username} / ${DEMO_USER.password}`;
    io.stdout.write(`digest: ${reference.urls.base}/protected, realm ${REALM}, ${who}\n`);
  }
  if (longLists && servers.includes("contacts"))
    io.stdout.write(
      `long contact lists: ${longListsDescribed(longLists)
        .map((l) => l.user)
        .join(", ")}\n`,
    );
  if (faults.length > 0) io.stdout.write(`faults: ${faults.join(", ")}\n`);
  const signal = await new Promise<NodeJS.Signals>((done) => {
    process.once("SIGINT", done);
    process.once("SIGTERM", done);
  });
  await reference.close(signal === "SIGTERM" ? SHUTDOWN_GRACE_MS : 0);
  return 0;
}

function noncePolicy(text: string | undefined): NoncePolicy | undefined {
  if (text === undefined || text === "one-time" || text === "unlimited") return text;
  const uses = Number(text);
  if (!Number.isInteger(uses) || uses < 1) {
    throw new UsageError(`--nonce-policy must be one-time, unlimited or a number of uses, got "${text}"`);
  }
  return { uses };
}

/** --long-lists: comma-separated whole numbers above 0, none repeated. */
function lengthsOf(text: string | undefined): number[] | undefined {
  if (text === undefined) return undefined;
  const lengths = text.split(",").map((n) => n.trim());
  if (lengths.some((n) => !/^[1-9]\d*$/.test(n)) || new Set(lengths).size !== lengths.length)
    throw new UsageError(`--long-lists takes comma-separated whole numbers above 0 without repeats, got "${text}"`);
  return lengths.map(Number);
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

function exportRel(text: string | undefined): string | undefined {
  if (text === undefined || isAbsoluteUri(text)) return text;
  throw new UsageError(`--export-rel must be an absolute URI, e.g. "https://example.org/rels/export", got "${text}"`);
}

/** The backend request as the flags describe it (as export.backend does in a target description). */
function backendOf(
  path: string | undefined,
  given: { method?: string; tokenHeader?: string; tokenValue?: string },
): BackendRequest | undefined {
  const stated = Object.fromEntries(Object.entries(given).filter(([, text]) => text !== undefined));
  if (path === undefined) {
    if (Object.keys(stated).length > 0)
      throw new UsageError("--backend-method, --backend-token-header and --backend-token-value need --backend-path");
    return undefined;
  }
  if (!path.startsWith("/") || !path.includes("{user}"))
    throw new UsageError(
      `--backend-path must be a path with {user}, e.g. "/internal/export/{user}?t={token}", got "${path}"`,
    );
  if (given.tokenValue !== undefined && given.tokenHeader === undefined)
    throw new UsageError("--backend-token-value needs --backend-token-header, the header it is the value of");
  if (given.tokenValue !== undefined && !holdsTokenOnce(given.tokenValue))
    throw new UsageError(
      `--backend-token-value must hold {token} once, e.g. "Bearer {token}", got "${given.tokenValue}"`,
    );
  return { path, ...stated };
}
