import { readFileSync } from "node:fs";
import { peerUrl } from "../cli/peer-options.ts";
import { resolveDescription } from "../harness/target.ts";
import { startReference } from "../reference/index.ts";
import { freePort } from "./support/ports.ts";
import { runAgainstTarget } from "./support/suite.ts";

const port = await freePort();
const half = await startReference({
  host: "127.0.0.1",
  ports: { base: 0, contacts: 0, messaging: 0 },
  servers: ["contacts"],
  publicUrls: { messaging: peerUrl(port) },
  contactsFile: "/tmp/pd/contacts.json",
  exportRel: "https://team.example/rels/copy-contacts",
  backend: { path: "/internal/lists/{user}", method: "POST", tokenHeader: "X-Export-Token" },
});
const layer = JSON.parse(readFileSync("/tmp/pd/target.json", "utf8"));
if (process.env.NOHEAD) delete layer.headers;
const resolved = resolveDescription([
  layer,
  { baseUrl: half.urls.contacts, contactsUrl: half.urls.contacts, messagingUrl: peerUrl(port) },
]);
if (!resolved.ok) throw new Error(resolved.error);
console.error("running");
const run = await runAgainstTarget(resolved.value, {
  tags: process.env.TAGS ?? "@EXP-5",
  strict: true,
  peer: { side: "messaging", port, host: "127.0.0.1" },
});
console.error(
  run.judgement.rows.filter((r) => r.scenarios.length).map((r) => `${r.row.id} ${r.verdict} ${r.reason ?? ""}`),
);
await half.close();
