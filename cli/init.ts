/**
 * `sxd init`: writes a starter target description for a new server, from flags or, on a
 * terminal, by asking. JSON has no comments, so the notes to the reader are `$comment` keys,
 * which the schema and sxd's checker allow and the run ignores; `$schema` points editors at
 * schema/target.schema.json for completion and checking (see schemaReference).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { createInterface } from "node:readline/promises";
import { fileURLToPath } from "node:url";
import { type Behaviour, resolveDescription, unstatedKeys, withAlternative } from "../harness/description/target.ts";
import { validateDescription } from "../harness/description/target-check.ts";
import { UsageError } from "../harness/errors.ts";
import { packageFile } from "../harness/package.ts";
import { commandHelp } from "./help.ts";
import { parseOptions, withDefault } from "./option-parse.ts";
import { type OptionName, optionsOf } from "./option-table.ts";

/** The starter's questions, in the order asked; each is also a flag, whose help is the question. */
const QUESTIONS = [
  "base-url",
  "contacts-url",
  "messaging-url",
  "collection",
  "digest-path",
  "username",
  "password",
  "export-user",
  "export-backend",
] as const satisfies readonly OptionName[];
type Question = (typeof QUESTIONS)[number];

export type Answers = Record<Question, string>;

const BEHAVIOURS: readonly Behaviour[] = ["snapshots", "digest", "export"];

/** Asks one question on the terminal, returning the answer ("" for none). */
export type Ask = (question: string) => Promise<string>;

/** What was answered, as description keys; an unanswered question leaves its key out. */
function describedBy(answers: Answers) {
  const optional = (value: string) => (value === "" ? undefined : value);
  return {
    baseUrl: answers["base-url"],
    contactsUrl: optional(answers["contacts-url"]),
    messagingUrl: optional(answers["messaging-url"]),
    snapshots: { collection: optional(answers.collection) },
    digest: {
      path: optional(answers["digest-path"]),
      username: optional(answers.username),
      password: optional(answers.password),
    },
    export: {
      user: optional(answers["export-user"]),
      backend: answers["export-backend"] === "" ? undefined : { path: answers["export-backend"] },
    },
  };
}

type Described = ReturnType<typeof describedBy>;

/**
 * The starter description: what was answered, with a note on each part and on what else it
 * may say. A question left unanswered leaves its key out (silence is not the reference's
 * value); the section's note names the keys still to state.
 */
function starterDescription(described: Described, schemaRef: string): Record<string, unknown> {
  const toState = (behaviour: Behaviour) => {
    const keys = unstated(described, behaviour);
    return keys.length === 0
      ? ""
      : `Still to state: ${keys.join(", ")}; until then the rows that need them are not run. `;
  };
  return {
    $schema: schemaRef,
    $comment:
      "The target description of sxd test --config: what the interface leaves to each server. Every key is optional; a key left out is not stated, and the rows that need it are not run. sxd ignores $comment keys. docs/target-description.md and the schema name every key.",
    baseUrl: described.baseUrl,
    contactsUrl: described.contactsUrl,
    messagingUrl: described.messagingUrl,
    snapshots: {
      $comment: `${toState("snapshots")}Each snapshot scenario creates its own resource under "collection" (PUT with If-None-Match: *) and deletes it afterwards. A server that cannot create lists existing resources instead: "resources": [{ "path": "/notes/1" }].`,
      ...described.snapshots,
    },
    digest: {
      $comment: `${toState("digest")}"path": a resource that answers an authenticated GET with 200 and an XML body; "username" and "password": a user of it (the password computes digests and is never sent). Add "noncePolicy" ("one-time", { "uses": N }, "nc-once" or "unlimited") and "nonceLifetime" (seconds, or "unlimited"): until you say, the replay and stale-nonce rows are not run.`,
      ...described.digest,
    },
    export: {
      $comment: `${toState("export")}Used only with contactsUrl and messagingUrl; "user": a user whose contact list the contacts server serves. The server may also take: "otherUser" (a second user, for the token check), "rel" (the export relation URI), "upload" (the fallback upload, or false if it takes none; until you say, that row is not run), "result" (where to read the imported contacts), "outage" (commands that stop and start the contacts server), "backend" (how the messaging server asks the contacts server for the list, e.g. { "path": "/internal/export/{user}?t={token}" }, with "method", "tokenHeader" and "tokenValue" ("Bearer {token}") if needed: what sxd serves or asks when it plays one side, --peer).`,
      ...described.export,
    },
  };
}

/** The keys a behaviour's rows need that the answers leave out, as sxd test names them. */
function unstated(described: Described, behaviour: Behaviour): string[] {
  const resolved = resolveDescription([described]);
  return resolved.ok ? unstatedKeys(resolved.value, behaviour).map(withAlternative) : [];
}

/**
 * The `$schema` of a description written to `outFile`: the package's schema by its path from
 * the file's folder where it lies in that folder's tree (`./node_modules/sxd/schema/…` where sxd
 * is installed in the project, `./schema/…` in this checkout), else the schema's `$id`. A path
 * out of the folder (a global install, or sxd's own in a container) names a file that the
 * project's other machines, or the host of a container, do not have.
 */
export function schemaReference(outFile: string, schemaFile: string, schemaId: string): string {
  const path = relative(dirname(outFile), schemaFile);
  if (path === ".." || path.startsWith(`..${sep}`) || isAbsolute(path)) return schemaId;
  return `./${path.split(sep).join("/")}`;
}

/** Questions on the terminal; none where stdin is not one (CI, a pipe), so flags must say it all. */
export function terminalAsk(): Ask | undefined {
  if (!process.stdin.isTTY) return undefined;
  return async (question) => {
    const terminal = createInterface({ input: process.stdin, output: process.stdout });
    try {
      return await terminal.question(`${question}: `);
    } finally {
      terminal.close();
    }
  };
}

export async function runInit(argv: string[], io: { stdout: NodeJS.WritableStream; ask?: Ask }): Promise<number> {
  const parsed = parseOptions("init", argv, {});
  if (!parsed.ok) throw new UsageError(parsed.error);
  const given = parsed.value;
  if (given.help) {
    io.stdout.write(commandHelp("init"));
    return 0;
  }
  if (given.text("base-url") === undefined && !io.ask)
    throw new UsageError("sxd init needs --base-url (or a terminal, to be asked)");
  const answers = {} as Answers;
  for (const name of QUESTIONS) {
    const question = optionsOf("init").find((option) => option.name === name);
    const byDefault = question?.default;
    const flag = given.text(name);
    const answer =
      flag ?? (io.ask ? (await io.ask(`${question?.help}${byDefault ? ` [${byDefault}]` : ""}`)).trim() : "");
    answers[name] = answer === "" ? (byDefault ?? "") : answer;
  }
  const out = resolve(withDefault("init", "out", given.text("out")));
  const schemaFile = packageFile("schema/target.schema.json");
  const schemaId = (JSON.parse(readFileSync(schemaFile, "utf8")) as { $id: string }).$id;
  const described = describedBy(answers);
  const description = starterDescription(described, schemaReference(out, fileURLToPath(schemaFile), schemaId));
  const checked = validateDescription(JSON.parse(JSON.stringify(description)), "sxd init");
  if (!checked.ok) throw new UsageError(checked.error);
  try {
    writeFileSync(out, `${JSON.stringify(description, null, 2)}\n`, { flag: given.switch("force") ? "w" : "wx" });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") throw new UsageError(`${out} exists (--force overwrites it)`);
    if (code === "ENOENT") throw new UsageError(`cannot write ${out}: no such folder`);
    throw new UsageError(`cannot write ${out}: ${(error as Error).message}`);
  }
  const toState = BEHAVIOURS.flatMap((behaviour) => unstated(described, behaviour));
  const still =
    toState.length === 0
      ? []
      : [`still to state (until then, the rows that need them are not run): ${toState.join(", ")}`];
  io.stdout.write(
    [`wrote ${out}`, ...still, `next: sxd test --config ${relative(process.cwd(), out) || out}`, ""].join("\n"),
  );
  return 0;
}
