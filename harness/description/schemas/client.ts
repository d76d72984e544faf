/**
 * The client description's JSON Schema, declared once: schema/client.schema.json is written
 * from it (`npm run schemas`), sxd checks every client description against that file
 * (harness/client/description.ts), and its TypeScript type is read off it.
 */
import Type from "typebox";
import { KINDS, known, optional } from "./kinds.ts";

const CLIENT = Type.Object(
  {
    $schema: optional("text", "This schema, for editors."),
    $comment: optional("comment"),
    digest: Type.Optional(
      known({
        checksRspauth: optional(
          "switch",
          "The client checks rspauth in Authentication-Info and treats a reply whose rspauth does not prove the secret as a failure. true: exit 0 on the wrong rspauth sxd stages fails the row. false: not applicable. Absent: observed (exiting non-zero takes the option, exit 0 is not applicable).",
        ),
        retriesStale: optional(
          "switch",
          "On a 401 with stale=true the client answers again with the new nonce, without new credentials. true: giving up fails the row. false: not applicable. Absent: observed (giving up is not applicable).",
        ),
      }),
    ),
    export: Type.Optional(
      known({
        fallback: optional(
          "switch",
          "Where the export by link cannot work (no link, or the POST answered 5xx), the client downloads the contact list and uploads every contact to the messaging server itself, once. true: sxd stages both and judges the upload. false: not applicable. Absent: not run.",
        ),
      }),
    ),
  },
  {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://sxd.example/schema/client.schema.json",
    title: "sxd client description",
    description:
      'What a client\'s authors state about the options the client rows leave to it (sxd test-client --config). Every key is optional, but silence is not "no": where a key is absent, its row is observed where sxd can and otherwise not run, naming the key to set. true: the client takes the option and is judged by it. false: it does without, and the row does not apply.',
    additionalProperties: false,
    $defs: { text: KINDS.text, comment: KINDS.comment, switch: KINDS.switch },
  },
);

/** The schema, with its address. */
export const CLIENT_SCHEMA = CLIENT as typeof CLIENT & { $id: string };
