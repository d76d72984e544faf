/**
 * A contacts server and a messaging server of the tests' own whose link tokens are JWTs
 * (HS256, {sub, exp}), checked as a careful server checks them: the header must name HS256,
 * the signature must be right for the shared key, sub must be the user of the address and exp
 * still ahead. Unlike the reference's HMAC token, this one shows its claims to anyone who
 * reads it: the forgeries of EXP-6 that need a JWT run against it, and must all be refused.
 *
 *   const pair = await startJwtExportPair();
 *   pair.description // contactsUrl, messagingUrl and the export users, for the suite
 */
import { randomBytes } from "node:crypto";
import { signedJwt, verifiedHs256 } from "../../lib/jwt.ts";
import { XML_TYPE } from "../../lib/media-type.ts";
import { contactListXml, EXPORT_REL, type ExportPair, listen, refuse } from "./export-servers.ts";

const CONTACTS: Record<string, string[]> = {
  ada: ["<contact><name>Grace Hopper</name><email>grace@example.org</email></contact>"],
  lin: ["<contact><name>Alan Kay</name><email>alan@example.org</email></contact>"],
};

export async function startJwtExportPair(): Promise<ExportPair> {
  const key = randomBytes(32).toString("base64url");
  let messagingUrl = "";
  const held = new Map<string, string[]>();

  const contacts = await listen((url, method, response) => {
    const user = /^\/user\/([a-z]+)\/contacts$/.exec(url.pathname)?.[1];
    if (method !== "GET" || !user || !CONTACTS[user]) return refuse(response, 404, "no such list");
    const token = signedJwt({ sub: user, exp: Math.floor(Date.now() / 1000) + 600 }, key);
    const href = `${messagingUrl}/user/${user}/import;t=${token}`;
    response.writeHead(200, { "content-type": XML_TYPE }).end(contactListXml(url.href, href, CONTACTS[user]));
  });

  const messaging = await listen((url, method, response) => {
    const result = /^\/user\/([a-z]+)$/.exec(url.pathname)?.[1];
    if (method === "GET" && result) {
      const list = held.get(result);
      if (!list) return refuse(response, 404, "nothing imported");
      return response.writeHead(200, { "content-type": XML_TYPE }).end(`<imported>${list.join("")}</imported>`);
    }
    const importing = /^\/user\/([a-z]+)\/import;t=([A-Za-z0-9._-]*)$/.exec(url.pathname);
    if (method !== "POST" || !importing) return refuse(response, 404, "no such address");
    const [, user, token] = importing;
    const claims = verifiedHs256(token, key);
    if (!claims || claims.sub !== user) return refuse(response, 403, "not a token for this user");
    if (typeof claims.exp !== "number" || claims.exp <= Date.now() / 1000) return refuse(response, 403, "expired");
    held.set(user, [...(CONTACTS[user] ?? [])]);
    response.writeHead(303, { location: `${messagingUrl}/user/${user}`, "content-type": XML_TYPE }).end("<exported/>");
  });
  messagingUrl = messaging.url;

  return {
    description: {
      contactsUrl: contacts.url,
      messagingUrl,
      export: { user: "ada", otherUser: "lin", rel: EXPORT_REL, upload: false },
    },
    close: async () => {
      await Promise.all([contacts.close(), messaging.close()]);
    },
  };
}
