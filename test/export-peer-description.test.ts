// Where sxd plays one export server (sxd test --peer), each key of the target description is
// what sxd's own server does, or is not asked of it, or describes the team's server and is
// applied there. The reference split in two, described with its own relation, users and
// backend request, is conformant both ways; every key of the description, in each mode, has
// a case below that shows which of the three it is.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, test } from "node:test";
import { peerLayers, peerUrl } from "../cli/peer-options.ts";
import { describedForPeer, type PeerSide, rowsBindingOnly, standInSettings } from "../harness/description/peer.ts";
import { resolveDescription, type TargetDescription } from "../harness/description/target.ts";
import { descriptionKeys } from "../harness/description/target-check.ts";
import type { Exchange } from "../harness/evidence/exchange.ts";
import { loadRows } from "../harness/judging/catalogue.ts";
import { observationsOf } from "../harness/judging/outcomes.ts";
import type { SuiteRun } from "../harness/run/run.ts";
import { startPeer, startReference } from "../reference/index.ts";
import { freePort } from "./support/ports.ts";
import { behaviourTags, exchangesOf, rowsWith, runAgainstTarget } from "./support/suite.ts";

const TEAM_REL = "https://team.example/rels/copy-contacts";
const BACKEND = { path: "/internal/lists/{user}", method: "POST", tokenHeader: "X-Export-Token" };
const dir = mkdtempSync(join(tmpdir(), "sxd-peer-description-"));
/** Written by the description's outage commands, which sxd must not run where it plays a server. */
const outageMarker = join(dir, "outage-commands-ran");

/** What the team writes of its servers, the same whichever one it brought, but for `own` keys. */
function description(own: Partial<TargetDescription["export"]>): Partial<TargetDescription> {
  return {
    headers: { contacts: { "X-Team-Gateway": "contacts" }, messaging: { "X-Team-Gateway": "messaging" } },
    export: {
      user: "ada",
      otherUser: "lin",
      rel: TEAM_REL,
      backend: BACKEND,
      outage: { stop: `touch ${outageMarker}`, start: `touch ${outageMarker}` },
      ...own,
    },
  };
}

/** The team's messaging server has its result and upload where the reference keeps them. */
const OF_MESSAGING = description({ result: "/user/{user}", upload: { method: "POST", path: "/user/{user}/contacts" } });
/** With sxd's messaging server, these describe an address sxd's server does not have. */
const OF_CONTACTS = description({ result: "/nowhere/{user}", upload: { method: "POST", path: "/nowhere/{user}/up" } });

interface Judged {
  run: SuiteRun;
  target: TargetDescription;
  teamUrl: string;
  peerUrl: string;
}

/** The reference's `team` server alone, with the description's relation, users and backend, judged with sxd playing the other. */
async function judgeHalf(team: PeerSide, layer: Partial<TargetDescription>): Promise<Judged> {
  const side: PeerSide = team === "contacts" ? "messaging" : "contacts";
  const port = await freePort();
  const contactsFile = join(dir, "contacts.json");
  writeFileSync(
    contactsFile,
    JSON.stringify({
      ada: [{ name: "Grace Hopper", email: "grace@example.org" }, { name: "Alan Turing" }],
      lin: [{ name: "Adele Goldberg" }],
    }),
  );
  const half = await startReference({
    host: "127.0.0.1",
    ports: { base: 0, contacts: 0, messaging: 0 },
    servers: [team],
    publicUrls: { [side]: peerUrl(port) },
    contactsFile,
    exportRel: TEAM_REL,
    backend: BACKEND,
  });
  try {
    const teamUrl = half.urls[team];
    const resolved = resolveDescription([
      layer,
      { baseUrl: teamUrl, [`${team}Url`]: teamUrl, [`${side}Url`]: peerUrl(port) },
    ]);
    assert.ok(resolved.ok, resolved.ok ? "" : resolved.error);
    const tags = behaviourTags(
      "EXP",
      loadRows().map((r) => r.id),
    );
    const run = await runAgainstTarget(resolved.value, { tags, strict: true, peer: { side, port, host: "127.0.0.1" } });
    return { run, target: resolved.value, teamUrl, peerUrl: peerUrl(port) };
  } finally {
    await half.close();
  }
}

const runs = {} as Record<PeerSide, Judged>;

before(async () => {
  runs.contacts = await judgeHalf("messaging", OF_MESSAGING);
  runs.messaging = await judgeHalf("contacts", OF_CONTACTS);
});

const allExchanges = (judged: Judged) =>
  loadRows()
    .filter((row) => row.id.startsWith("EXP-"))
    .flatMap((row) => exchangesOf(judged.run, row.id));
const sentTo = (judged: Judged, url: string) => allExchanges(judged).filter((e) => e.url.startsWith(url));
const observed = (judged: Judged, id: string) =>
  judged.run.judgement.rows.find((r) => r.row.id === id)?.scenarios.flatMap((s) => observationsOf(s.attachments)) ?? [];

test("the reference split in two, with its own relation, users and backend request, is conformant both ways", () => {
  for (const side of ["contacts", "messaging"] as const) {
    const { run } = runs[side];
    assert.deepEqual(rowsWith(run, "failed", "not run", "warning"), [], side);
    // EXP-10 besides: the reference's standard tokens are not new on each read, so there is no sample to judge.
    const notApplicable = new Set([...rowsBindingOnly(side), "EXP-10"]);
    assert.deepEqual(rowsWith(run, "not applicable"), [...notApplicable].sort(), side);
    assert.equal(run.exitCode, 0, side);
  }
});

/** How one key is taken in one mode: the reason, and what shows it. */
interface KeyCase {
  says: string;
  shows: (judged: Judged, side: PeerSide) => void | Promise<void>;
}

/** The key describes the base server or sxd as a client, never the server sxd plays: it does not reach sxd's server. */
function notTheStandIns(change: Partial<TargetDescription>): KeyCase {
  return {
    says: "describes the team's base server or how sxd runs, not an export server sxd plays",
    shows: ({ target }, side) => {
      const changed = { ...target, ...change };
      assert.deepEqual(standInSettings(side, changed), standInSettings(side, target));
      assert.deepEqual(describedForPeer(changed, side), { ...describedForPeer(target, side), ...change });
    },
  };
}

/** The key describes the team's server: sxd's server does not take it, and sxd applies it to the team's. */
function theTeams(key: keyof TargetDescription["export"], applied: KeyCase["shows"]): KeyCase {
  return {
    says: "describes the team's server, where sxd applies it",
    shows: (judged, side) => {
      const changed = { ...judged.target, export: { ...judged.target.export, [key]: undefined } };
      assert.deepEqual(standInSettings(side, changed), standInSettings(side, judged.target));
      return applied(judged, side);
    },
  };
}

/** The list sxd read, and the link it found in it, on the contacts server of the run. */
function readList(judged: Judged, contactsUrl: string, user: string): Exchange {
  const list = sentTo(judged, `${contactsUrl}/user/${user}/contacts`).find((e) => e.method === "GET");
  assert.equal(list?.response?.status, 200, `${JSON.stringify(list)}`);
  return list as Exchange;
}

const relationServed: KeyCase["shows"] = (judged, side) => {
  const contactsUrl = side === "contacts" ? judged.peerUrl : judged.teamUrl;
  assert.match(readList(judged, contactsUrl, "ada").response?.body ?? "", new RegExp(`rel="${TEAM_REL}"`));
  for (const id of ["EXP-3", "EXP-4", "EXP-5", "EXP-6"].filter((row) => !rowsBindingOnly(side).includes(row)))
    assert.equal(judged.run.judgement.rows.find((r) => r.row.id === id)?.verdict, "passed", id);
};

/** sxd's contacts server: the user's list under the description's name, and the backend request asked as described. */
const backendServed: KeyCase["shows"] = (judged) => {
  const seen = sentTo(judged, `${judged.peerUrl}/internal/lists/ada`);
  assert.ok(seen.length > 0, "no backend request at sxd's contacts server");
  assert.ok(
    seen.every((e) => e.method === "POST" && e.requestHeaders["x-export-token"]),
    `${JSON.stringify(seen)}`,
  );
  assert.ok(
    seen.some((e) => e.response?.status === 200 && /Bob Marsh/.test(e.response.body)),
    `${JSON.stringify(seen)}`,
  );
  const evidence = observed(judged, "EXP-5");
  assert.ok(
    evidence.some((o) => /received POST \/internal\/lists\/ada for user ada .*answered 200/.test(o)),
    evidence.join("\n"),
  );
};

/** sxd's messaging server: the backend request sent as described, with the link's token in the header where the link had one. */
const backendAsked: KeyCase["shows"] = (judged) => {
  const sent = sentTo(judged, `${judged.teamUrl}/internal/lists/`).filter((e) => e.note?.startsWith("sent by sxd"));
  assert.ok(sent.length > 0, "sxd's messaging server sent no backend request");
  assert.ok(
    sent.every((e) => e.method === "POST"),
    `${JSON.stringify(sent)}`,
  );
  assert.ok(
    sent.some(
      (e) =>
        e.url === `${judged.teamUrl}/internal/lists/ada` &&
        e.requestHeaders["x-export-token"] &&
        e.response?.status === 200,
    ),
    `${JSON.stringify(sent)}`,
  );
  // The team's contacts server refused the other user's list for the user's token (EXP-6).
  assert.ok(
    sent.some((e) => e.url === `${judged.teamUrl}/internal/lists/lin` && e.response?.status === 403),
    `${JSON.stringify(sent)}`,
  );
};

const notAsked =
  (path: string, id: string): KeyCase["shows"] =>
  (judged, side) => {
    assert.deepEqual(sentTo(judged, `${judged.peerUrl}${path}`), []);
    assert.equal(
      judged.run.judgement.rows.find((r) => r.row.id === id)?.verdict,
      "passed",
      `${id} with --peer ${side}`,
    );
  };

const peerSideUrl = (key: "contactsUrl" | "messagingUrl"): KeyCase => ({
  says: "where sxd's server is: from the description it gives way to sxd's server; by flag or variable it is refused",
  shows: (_judged, side) => {
    const own = side === "contacts" ? "contactsUrl" : "messagingUrl";
    const team = own === "contactsUrl" ? "messagingUrl" : "contactsUrl";
    const layer =
      key === own ? { [key]: "http://team.example", [team]: "http://t.example" } : { [key]: "http://team.example" };
    const result = peerLayers({ side, port: "8081" }, [layer], undefined);
    assert.ok(result.ok, JSON.stringify(result));
    const resolved = resolveDescription(result.value.layers);
    assert.ok(resolved.ok);
    assert.equal(resolved.value[key], key === own ? peerUrl(8081) : "http://team.example");
    const flagged = peerLayers({ side, port: "8081" }, [layer], undefined, { [key]: "http://team.example" });
    if (key === own)
      assert.match(flagged.ok ? "" : flagged.error, new RegExp(`sxd plays the ${side} server; leave out`));
    else assert.ok(flagged.ok);
  },
});

/** Per key prefix, per side sxd plays: how the key is taken. The longest matching prefix answers. */
const CASES: Record<string, Record<PeerSide, KeyCase>> = {
  baseUrl: both(notTheStandIns({ baseUrl: "http://base.example" })),
  run: both(notTheStandIns({ run: { timeout: 1, maxBody: 1, parallel: 3, tags: "@EXP-1" } })),
  snapshots: both(notTheStandIns({ snapshots: { collection: "/elsewhere/" } })),
  digest: both(notTheStandIns({ digest: { path: "/secret", username: "u", password: "p", noncePolicy: "nc-once" } })),
  "headers.base": both(notTheStandIns({ headers: { base: { "X-Other": "1" } } })),
  // sxd sends the played side's headers to its own server too; it takes requests with or without them.
  "headers.contacts": {
    contacts: { says: "sent to sxd's own server, which does not require them", shows: headersIgnored("contacts") },
    messaging: { says: "the team's contacts server's", shows: headersSentToTeam("contacts") },
  },
  "headers.messaging": {
    contacts: { says: "the team's messaging server's", shows: headersSentToTeam("messaging") },
    messaging: { says: "sent to sxd's own server, which does not require them", shows: headersIgnored("messaging") },
  },
  contactsUrl: both(peerSideUrl("contactsUrl")),
  messagingUrl: both(peerSideUrl("messagingUrl")),
  "export.rel": {
    contacts: { says: "sxd's contacts server's export link has this relation", shows: relationServed },
    messaging: theTeams("rel", relationServed),
  },
  "export.user": {
    contacts: {
      says: "sxd's contacts server serves this user's list (the reference's first list)",
      shows: (judged) => {
        assert.match(readList(judged, judged.peerUrl, "ada").response?.body ?? "", /<contact>/);
        backendServed(judged, "contacts");
      },
    },
    messaging: {
      says: "sxd's messaging server takes exports for this user",
      shows: (judged) => {
        const post = sentTo(judged, `${judged.peerUrl}/user/ada/import;t=`).find((e) => e.method === "POST");
        assert.equal(post?.response?.status, 303, `${JSON.stringify(post)}`);
      },
    },
  },
  "export.otherUser": {
    contacts: {
      says: "sxd's contacts server serves this user's list too (the reference's second), for the token check",
      shows: (judged) => {
        assert.equal(judged.run.judgement.rows.find((r) => r.row.id === "EXP-6")?.verdict, "passed");
        // The team's messaging server checks the token itself, so sxd's server is asked for lin's list directly.
        return standInServes({ user: "ada", otherUser: "lin" }, "lin", /Alice Liddell/);
      },
    },
    messaging: {
      says: "sxd's messaging server takes the export link made for it, and asks the team's server for that user",
      shows: backendAsked,
    },
  },
  "export.backend": {
    contacts: { says: "sxd's contacts server serves and checks the backend request there", shows: backendServed },
    messaging: { says: "sxd's messaging server asks there", shows: backendAsked },
  },
  "export.result": {
    contacts: theTeams("result", (judged) => {
      const read = sentTo(judged, `${judged.teamUrl}/user/ada`).filter((e) => e.method === "GET");
      assert.ok(
        read.some((e) => e.response?.status === 200 && /Bob Marsh/.test(e.response.body)),
        `${JSON.stringify(read)}`,
      );
    }),
    messaging: {
      says: "not asked: sxd reads its own messaging server where it holds the copy, the export's Location",
      shows: (judged, side) => {
        assert.equal(
          describedForPeer({ ...judged.target, export: { ...judged.target.export, result: false } }, side).export
            .result,
          "location",
        );
        notAsked("/nowhere/", "EXP-5")(judged, side);
      },
    },
  },
  "export.upload": {
    contacts: theTeams("upload", (judged) => {
      const upload = sentTo(judged, `${judged.teamUrl}/user/`).find(
        (e) => e.method === "POST" && e.url.endsWith("/contacts"),
      );
      assert.ok(upload?.response && upload.response.status < 400, `${JSON.stringify(upload)}`);
    }),
    messaging: {
      says: "not asked: the fallback upload (EXP-9) binds only the messaging server, which sxd plays",
      shows: (judged) => {
        assert.deepEqual(sentTo(judged, `${judged.peerUrl}/nowhere/`), []);
        assert.equal(judged.run.judgement.rows.find((r) => r.row.id === "EXP-9")?.verdict, "not applicable");
      },
    },
  },
  "export.longLists": both({
    says: "read by sxd limits alone (LIM-5): no server sxd plays in sxd test takes it",
    shows: ({ target }, side) => {
      const changed = { ...target, export: { ...target.export, longLists: [{ user: "long-10", contacts: 10 }] } };
      assert.deepEqual(standInSettings(side, changed), standInSettings(side, target));
    },
  }),
  "export.outage": {
    contacts: {
      says: "not asked: sxd stops and starts its own contacts server for EXP-8, and runs no command",
      shows: (judged) => {
        assert.equal(existsSync(outageMarker), false);
        assert.equal(judged.run.judgement.rows.find((r) => r.row.id === "EXP-8")?.verdict, "passed");
        const seen = observed(judged, "EXP-8");
        assert.ok(
          seen.some((o) => o.startsWith("sxd stopped its own contacts server")),
          seen.join("\n"),
        );
      },
    },
    messaging: {
      says: "not asked: the outage (EXP-8) binds only the messaging server, which sxd plays",
      shows: (judged) => {
        assert.equal(existsSync(outageMarker), false);
        assert.equal(judged.run.judgement.rows.find((r) => r.row.id === "EXP-8")?.verdict, "not applicable");
      },
    },
  },
};

function both(keyCase: KeyCase): Record<PeerSide, KeyCase> {
  return { contacts: keyCase, messaging: keyCase };
}

/** The description's gateway header as sxd sent it (it keeps the description's spelling). */
const gatewayOf = (exchange: Exchange) =>
  Object.entries(exchange.requestHeaders).find(([name]) => name.toLowerCase() === "x-team-gateway")?.[1];

function headersIgnored(server: PeerSide): KeyCase["shows"] {
  return (judged) => {
    const own = sentTo(judged, judged.peerUrl).filter((e) => !e.note);
    const keys = own.map((e) => `${e.method} ${e.url} ${gatewayOf(e)} ${e.response?.status}`);
    assert.ok(own.length > 0 && own.every((e) => gatewayOf(e) === server), keys.join("\n"));
    assert.ok(
      own.some((e) => e.response && e.response.status < 400),
      keys.join("\n"),
    );
  };
}

function headersSentToTeam(server: PeerSide): KeyCase["shows"] {
  return (judged) => {
    const team = sentTo(judged, judged.teamUrl).filter((e) => !e.note);
    const keys = team.map((e) => `${e.method} ${e.url} ${gatewayOf(e)}`);
    assert.ok(team.length > 0 && team.every((e) => gatewayOf(e) === server), keys.join("\n"));
  };
}

/** sxd's contacts server alone, as the run starts it: `user`'s list, matching `contacts`. */
async function standInServes(users: { user: string; otherUser?: string }, user: string, contacts: RegExp) {
  const peer = await startPeer({
    side: "contacts",
    host: "127.0.0.1",
    port: 0,
    otherUrl: "http://127.0.0.1:9",
    users,
    rel: TEAM_REL,
  });
  try {
    const list = await fetch(`${peer.url}/user/${encodeURIComponent(user)}/contacts`);
    assert.equal(list.status, 200);
    const body = await list.text();
    assert.match(body, contacts);
    assert.match(
      body,
      new RegExp(`rel="${TEAM_REL}" href="http://127\\.0\\.0\\.1:9/user/${encodeURIComponent(user)}/import;t=`),
    );
    // Only the description's users: the reference's own are not served in their place.
    assert.equal((await fetch(`${peer.url}/user/alice/contacts`)).status, 404);
  } finally {
    await peer.close();
  }
}

function caseOf(key: string, side: PeerSide): KeyCase | undefined {
  const prefix = Object.keys(CASES)
    .filter((p) => key === p || key.startsWith(`${p}.`))
    .sort((a, b) => b.length - a.length)[0];
  return prefix === undefined ? undefined : CASES[prefix][side];
}

test("every key of the target description has a case in each mode", () => {
  const keys = descriptionKeys();
  assert.ok(keys.includes("export.backend.tokenHeader") && keys.includes("digest.noncePolicy"), keys.join(" "));
  for (const side of ["contacts", "messaging"] as const) {
    const missing = keys.filter((key) => caseOf(key, side) === undefined);
    assert.deepEqual(missing, [], `--peer ${side}`);
  }
});

for (const side of ["contacts", "messaging"] as const) {
  for (const [key, cases] of Object.entries(CASES)) {
    test(`--peer ${side}: ${key} ${cases[side].says}`, () => {
      return cases[side].shows(runs[side], side);
    });
  }
}

test("a user name that is not a plain path segment is served by sxd's contacts server", () =>
  standInServes({ user: "ada@example.org", otherUser: "lin" }, "ada@example.org", /Bob Marsh/));
