/**
 * Steps that read what sxd's own server saw where it plays one side of the export (--peer,
 * steps/support/peer.ts). Against a target with both servers they check nothing: sxd sees no
 * backend request there, and the row stands on what the messaging server shows.
 */
import type { Answered } from "../../harness/evidence/exchange.ts";
import { percentDecoded } from "../../lib/percent.ts";
import { Then } from "../support/cucumber.ts";
import { fail } from "../support/expect.ts";
import { asExchange, backendRequests, tokenPresented } from "../support/peer.ts";
import type { SxdWorld } from "../support/world.ts";
import { linkOf, stateOf } from "./checks.ts";
import { importToken } from "./contact-list.ts";

Then(
  "where sxd plays the contacts server, it received the messaging server's backend request for the user with the link's token",
  async function (this: SxdWorld) {
    const peer = this.parameters.peer;
    if (peer?.side !== "contacts") return;
    const state = stateOf(this);
    const link = linkOf(state);
    const token = importToken(link.href, state.messagingUrl, state.user);
    const since = state.exportReply?.startedAt ?? "";
    const seen = (await backendRequests(peer)).filter((s) => s.startedAt >= since);
    const withToken = tokenPresented(this);
    const ours = seen.find(
      (s) => s.user === state.user && (!withToken || (token.ok && s.token === percentDecoded(token.value))),
    );
    const expected = `a backend request at sxd's contacts server ${peer.url} for user ${state.user}${withToken ? ` with the link's token${token.ok ? ` ${token.value}` : ""}` : " (export.backend presents no token, so only the user is checked)"} after the POST of the link`;
    if (!ours) {
      const what = seen.map((s) => `${s.method} ${s.target} (user ${s.user}, token ${s.token ?? "none"})`);
      fail(expected, what.length === 0 ? "no backend request at all" : what.join("; "), state.exportReply);
    }
    const exchange = asExchange(peer, ours);
    this.http.exchanges.push(exchange);
    if (ours.status !== 200) fail(`${expected}, answered with the list`, `status ${ours.status}`, exchange as Answered);
    this.observe(
      `sxd's contacts server received ${ours.method} ${ours.target} for user ${ours.user}${ours.token ? ` with the link's token` : ""} after the POST of the link, and answered ${ours.status}`,
    );
  },
);
