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
import { UsageError } from "../harness/errors.ts";
import { packageFile } from "../harness/package.ts";
import { validateDescription } from "../harness/target-check.ts";
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

/** Asks one question on the terminal, returning the answer ("" for none). */
export type Ask = (question: string) => Promise<string>;

/** The starter description: what was answered, with a note on each part and on what else it may say. */
function starterDescription(answers: Answers, schemaRef: string): Record<string, unknown> {
  const optional = (value: string) => (value === "" ? undefined : value);
  return {
    $schema: schemaRef,
    $comment:
      "The target description of sxd test --config: what the interface leaves to each server. Every key is optional; sxd ignores $comment keys. docs/target-description.md and the schema name every key.",
    baseUrl: answers["base-url"],
    contactsUrl: optional(answers["contacts-url"]),
    messagingUrl: optional(answers["messaging-url"]),
    snapshots: {
      $comment:
        'Each snapshot scenario creates its own resource here (PUT with If-None-Match: *) and deletes it afterwards. A server that cannot create lists existing resources instead: "resources": [{ "path": "/notes/1" }].',
      collection: answers.collection,
    },
    digest: {
      $comment:
        'A resource that answers an authenticated GET with 200 and an XML body. The password computes digests and is never sent. Add "noncePolicy" ("one-time", { "uses": N }, "nc-once" or "unlimited") and "nonceLifetime" (seconds, or "unlimited"): until you say, the replay and stale-nonce rows are not run.',
      path: answers["digest-path"],
      username: answers.username,
      password: answers.password,
    },
    export: {
      $comment:
        'Used only with contactsUrl and messagingUrl. The server may also take: "otherUser" (a second user, for the token check), "rel" (the export relation URI), "upload" (the fallback upload, or false if it takes none; until you say, that row is not run), "result" (where to read the imported contacts), "outage" (commands that stop and start the contacts server), "backend" (how the messaging server asks the contacts server for the list, e.g. { "path": "/internal/export/{user}?t={token}" }, with "method", "tokenHeader" and "tokenValue" ("Bearer {token}") if needed: what sxd serves or asks when it plays one side, --peer).',
      user: answers["export-user"],
      backend: answers["export-backend"] === "" ? undefined : { path: answers["export-backend"] },
    },
  };
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
  const description = starterDescription(answers, schemaReference(out, fileURLToPath(schemaFile), schemaId));
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
  io.stdout.write(`wrote ${out}\nnext: sxd test --config ${relative(process.cwd(), out) || out}\n`);
  return 0;
}
