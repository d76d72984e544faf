// Requests sxd could not see: the reference (all three servers, started by sxd) builds its
// export link from its own configuration, so it names the real messaging server. The example
// client (node:http, which ignores http_proxy) follows it past sxd: its export succeeds, and
// the client rows that need the POST sxd never saw are not observed, not broken. The control:
// curl, which honours http_proxy, does the same export through the proxy, all of it seen.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { InteropDocument } from "../harness/evidence/interop-document.ts";
import type { RecordedRequest } from "../lib/recording.ts";
import { EXAMPLE_CLIENT, SXD, sxd, tempDir } from "./support/cli.ts";
import { givenConformance } from "./support/interop-runs.ts";

const dir = tempDir();
const write = (name: string, text: string) => writeFileSync(join(dir, name), text);
write("conformance.json", givenConformance());
write(
  "curl-export.sh",
  `[ "$SXD_TASK" = export ] || exit 127
href=$(curl -sS --fail "$SXD_URL" | grep -o 'href="[^"]*/import;t=[^"]*"' | sed 's/^href="//; s/"$//')
[ -n "$href" ] || exit 1
exec curl -sS --fail -L --data-binary '' "$href"
`,
);
const given = { conformance: "conformance.json" };
write(
  "matrix.json",
  JSON.stringify({
    servers: {
      reference: {
        start: `node ${SXD} serve --port $SXD_PORT --contacts-port $SXD_CONTACTS_PORT --messaging-port $SXD_MESSAGING_PORT`,
        config: new URL("../examples/reference.json", import.meta.url).pathname,
        wait: 30,
        ...given,
      },
    },
    clients: { example: { run: EXAMPLE_CLIENT, ...given }, curl: { run: "sh ./curl-export.sh", ...given } },
  }),
);

test("a client that reached the server past sxd has its rows not observed; one through http_proxy is seen whole", async () => {
  const run = await sxd(["interop", join(dir, "matrix.json"), "--tasks", "export", "--report-dir", join(dir, "out")]);
  assert.equal(run.code, 0, run.stderr);
  const doc = JSON.parse(readFileSync(join(dir, "out", "interop.json"), "utf8")) as InteropDocument;
  const cell = (client: string) => doc.cells.find((c) => c.client === client && c.task === "export");
  const exchange = (client: string) =>
    JSON.parse(
      readFileSync(join(dir, "out", cell(client)?.evidence ?? "", "exchange.json"), "utf8"),
    ) as RecordedRequest[];
  const messaging = doc.servers[0]?.urls.messaging as string;

  const past = cell("example");
  assert.equal(past?.result, "succeeded");
  assert.deepEqual(past?.rows.client, []);
  assert.match(
    past?.why ?? "",
    new RegExp(
      `sxd did not see the client's requests to ${messaging}: .*it does not use http_proxy\\), so its rows CEXP-\\d`,
    ),
  );
  assert.deepEqual(
    exchange("example").map((r) => r.server),
    ["contacts"],
  );

  const through = cell("curl");
  assert.deepEqual([through?.result, through?.why], ["succeeded", "exit 0, and the effect is there"]);
  assert.deepEqual(
    exchange("curl").map((r) => `${r.server} ${r.method} ${r.reply.status}`),
    ["contacts GET 200", "messaging POST 303", "messaging GET 200"],
  );
});
