/**
 * The target description's JSON Schema, declared once: schema/target.schema.json is written
 * from it (`npm run schemas`, held by harness/description/schemas/target.test.ts), sxd checks every
 * description against that file (harness/description/target-check.ts), and its TypeScript type is read off
 * it (harness/description/target.ts). Each leaf is a kind (./kinds.ts) or a definition here, whose `title`
 * is what a message says the value must be.
 */
import Type, { type Static, type TProperties } from "typebox";
import type { NoncePolicy } from "../../../lib/digest-math.ts";
import type { BackendRequest } from "../../../lib/export-backend.ts";
import { RUN_SETTINGS, type RunSettings, SERVER_SETTINGS, type ServerUrls, type Setting } from "../settings.ts";
import { KINDS, known, optional, ref, refTo } from "./kinds.ts";

const NONCE_POLICY = Type.Unsafe<NoncePolicy>(
  Type.Union([Type.Enum(["one-time", "unlimited", "nc-once"]), known({ uses: ref("count") })], {
    title: '"one-time", "unlimited", "nc-once" or { "uses": N } with N above 0',
  }),
);
const LIFETIME = Type.Union([Type.Literal("unlimited"), ref("count")], {
  title: 'a whole number of seconds above 0, or "unlimited"',
});
const EXPORT_RESULT = Type.Union([Type.Literal("location"), Type.Literal(false), ref("path")], {
  title: '"location", a path starting with "/" (with {user}), or false',
});
const UPLOAD = Type.Union(
  [
    Type.Literal(false),
    known({
      method: ref("text"),
      path: ref("path", "On the messaging server, with {user}."),
      contentType: optional("text", "Default application/xml;charset=UTF-8."),
    }),
  ],
  { title: 'false, or { "method", "path", "contentType" }' },
);
const BACKEND_PATH = Type.String({
  pattern: "^/.*\\{user\\}",
  title: 'a path naming the user with {user}, e.g. "/internal/export/{user}?t={token}"',
});
const TOKEN_VALUE = Type.String({
  pattern: "^(?!.*\\{token\\}.*\\{token\\}).*\\{token\\}",
  title: 'a value holding {token} once, e.g. "Bearer {token}"',
});
const BACKEND = Type.Unsafe<BackendRequest>({
  ...known({
    path: refTo(
      "backendPath",
      BACKEND_PATH,
      "On the contacts server, with {user} and, where the token is presented there, {token}: /internal/export/{user}?t={token}.",
    ),
    method: optional("text", "Default GET."),
    tokenHeader: optional("text", "A header carrying the token."),
    tokenValue: Type.Optional(
      refTo(
        "tokenValue",
        TOKEN_VALUE,
        'The tokenHeader\'s value, with {token} once: "Bearer {token}" for Authorization. Default {token}, the bare token.',
      ),
    ),
  }),
  required: ["path"],
  dependentRequired: { tokenValue: ["tokenHeader"] },
  description:
    "How the messaging server asks the contacts server for the list: what sxd's own server serves, checks and asks where it plays one side (--peer). Default: GET /user/{user}/contacts, no token.",
});

/** A setting's help as a schema's description: a sentence, with its default. */
function described(setting: Setting): string {
  const byDefault = "default" in setting && setting.default !== undefined ? ` Default ${setting.default}.` : "";
  return `${setting.help.charAt(0).toUpperCase()}${setting.help.slice(1)}.${byDefault}`;
}

function settingsObject(settings: readonly Setting[]): TProperties {
  return Object.fromEntries(settings.map((s) => [s.key, optional(s.kind, described(s))]));
}

const SNAPSHOTS = known({
  collection: optional(
    "path",
    "Where the suite creates its scratch resources: PUT <baseUrl><collection><name> with If-None-Match: *. Without it or resources, the snapshot rows are not run.",
  ),
  resources: Type.Optional(
    Type.Array(
      known({
        path: ref("path"),
        delete: optional("switch", "The DELETE scenarios may delete it (once). Default false."),
      }),
      {
        minItems: 1,
        description:
          "For a server that cannot create: existing resources the suite updates instead, one scenario at a time each.",
      },
    ),
  ),
});

const DIGEST = known({
  path: optional(
    "path",
    "A protected resource that answers an authenticated GET with 200 and an XML body. With username and password, needed for the digest rows.",
  ),
  username: optional("text", "A user of that resource."),
  password: optional("text", "Its password, used to compute digests, never sent."),
  noncePolicy: Type.Optional(
    refTo(
      "noncePolicy",
      NONCE_POLICY,
      'How often a nonce may be used: "one-time", {"uses": N}, "nc-once" (each nonce count once) or "unlimited". Absent: not stated, and the replay row is not run; "unlimited": the row does not apply.',
    ),
  ),
  nonceLifetime: Type.Optional(
    refTo(
      "lifetime",
      LIFETIME,
      'Seconds a nonce stays usable (sxd waits up to 60 to see one expire), or "unlimited" where nonces never expire. Absent: not stated, and the stale-nonce row is not run unless a use limit stages it.',
    ),
  ),
  cookies: optional(
    "switch",
    "Keep the cookies the protected resource sets and send them back, per scenario (a server that keeps the nonce in a session). Default false.",
  ),
});

const EXPORT = known({
  user: optional(
    "text",
    "A user whose contact list the contacts server serves; needed for the export rows (with --peer contacts, sxd's own user where absent).",
  ),
  otherUser: optional("text", "A second user the contacts server knows, for the token check."),
  rel: optional("text", "The export relation URI."),
  upload: Type.Optional(
    refTo(
      "upload",
      UPLOAD,
      "The fallback upload of the contacts, or false where the messaging server takes none (the row does not apply). Absent: not stated, and the row is not run.",
    ),
  ),
  result: Type.Optional(
    refTo(
      "exportResult",
      EXPORT_RESULT,
      'Where the client reads what the messaging server holds after an export: "location" (default), a path with {user}, or false (cannot be read).',
    ),
  ),
  outage: Type.Optional(
    known(
      {
        stop: ref("text", "A shell command that stops the contacts server."),
        start: ref("text", "A shell command that starts it again."),
        timeoutMs: optional("count", "How long each command, and the wait for the server, may take."),
      },
      { description: "Shell commands that stop and start the contacts server, so the outage row can stage one." },
    ),
  ),
  backend: Type.Optional(refTo("backend", BACKEND)),
  longLists: Type.Optional(
    Type.Array(
      known({
        user: ref("text", "A user of the contacts server."),
        contacts: ref("count", "How many contacts its list holds."),
      }),
      {
        minItems: 1,
        description:
          "Users whose contact lists are long, each with its list's length: sxd limits measures the export of each (LIM-5), the length its size. Absent: LIM-5 is not run.",
      },
    ),
  ),
});

const HEADERS = known(
  {
    base: optional("headerMap"),
    contacts: optional("headerMap"),
    messaging: optional("headerMap"),
  },
  {
    description:
      "Extra request headers per server (a gateway key, a bearer token); a scenario's own header of the same name wins.",
  },
);

const RUN = Type.Unsafe<RunSettings>(
  known(settingsObject(RUN_SETTINGS), {
    description: "sxd test settings carried by the description; flags and environment win.",
  }),
);

export const TARGET_SCHEMA_ID = "https://sxd.example/schema/target.schema.json";

const TARGET = Type.Object(
  {
    $schema: optional("text", "This schema, for editors."),
    $comment: optional("comment"),
    // Typed by ServerUrls below: the keys are the settings' own.
    ...(settingsObject(SERVER_SETTINGS) as Record<never, never>),
    snapshots: Type.Optional(SNAPSHOTS),
    digest: Type.Optional(DIGEST),
    export: Type.Optional(EXPORT),
    run: Type.Optional(RUN),
    headers: Type.Optional(HEADERS),
  },
  {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: TARGET_SCHEMA_ID,
    title: "sxd target description",
    description:
      "What the interface leaves to each server: where its servers are, its paths and users, the options it takes, and the sxd test settings. Every key is optional, and none takes the bundled reference's choice: where a behaviour's keys are absent (snapshots.collection or snapshots.resources; digest.path, digest.username and digest.password; contactsUrl, messagingUrl and export.user), its rows are not run, naming them.",
    additionalProperties: false,
    $defs: {
      ...KINDS,
      noncePolicy: NONCE_POLICY,
      lifetime: LIFETIME,
      exportResult: EXPORT_RESULT,
      upload: UPLOAD,
      backendPath: BACKEND_PATH,
      tokenValue: TOKEN_VALUE,
      backend: BACKEND,
    },
  },
);

/** The schema, with its address and definitions. */
export const TARGET_SCHEMA = TARGET as typeof TARGET & { $id: string; $defs: Record<string, object> };

/** A description file's contents as its schema types them. */
export type DescriptionFile = Static<typeof TARGET_SCHEMA> & ServerUrls;
export type { RunSettings, ServerUrls };
