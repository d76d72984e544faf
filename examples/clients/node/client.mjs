#!/usr/bin/env node
/**
 * A small Digest client (RFC 7616) with nothing but node: the example `sxd test-client`
 * grades clean. It asks without credentials, answers the first challenge whose algorithm it
 * knows (SHA-256, MD5, in the server's order), with qop auth, or auth-int for a body where
 * offered (each challenge brings a fresh nonce, so nc is 00000001); checks rspauth; retries
 * once on stale=true, and gives up on any other 401 (the secret is wrong).
 *
 *   node client.mjs GET  https://host/protected user secret
 *   node client.mjs POST https://host/protected user secret "the body"
 */
import { randomBytes } from "node:crypto";
import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { digest, HASHES, parseChallenges } from "./digest.mjs";
import { wire } from "./wire.mjs";

/** Credentials quoted as RFC 7616 §3.4 writes them: tokens for algorithm, qop and nc. */
function authorization(d, response) {
  const quoted = (name, value) => `${name}="${value.replace(/["\\]/g, "\\$&")}"`;
  const parts = [
    quoted("username", d.user),
    quoted("realm", d.realm),
    quoted("nonce", d.nonce),
    quoted("uri", d.uri),
    `algorithm=${d.algorithm}`,
    quoted("response", response),
    `qop=${d.qop}`,
    `nc=${d.nc}`,
    quoted("cnonce", d.cnonce),
  ];
  if (d.opaque !== undefined) parts.push(quoted("opaque", d.opaque));
  return `Digest ${parts.join(", ")}`;
}

function chooseChallenge(header) {
  const digests = parseChallenges(header).filter((c) => c.scheme === "digest");
  return digests.find((c) => (c.params.get("algorithm") ?? "MD5") in HASHES);
}

export async function request(method, url, user, password, body) {
  const uri = new URL(url).pathname + new URL(url).search;
  const cnonce = randomBytes(12).toString("hex");
  let reply = await wire.send(url, { method, body: method === "POST" ? "" : undefined });
  let attempts = 0;
  while (reply.status === 401) {
    const challenge = chooseChallenge(reply.headers.get("www-authenticate") ?? "");
    if (!challenge) throw new Error("the server offers no Digest algorithm this client knows");
    // A 401 to our credentials says they are wrong, unless it says the nonce is stale (once).
    if (attempts > 0 && challenge.params.get("stale") !== "true")
      throw new Error("401: the user or the secret is wrong");
    if (attempts > 1) throw new Error("401: the nonce went stale again");
    attempts++;
    const offered = (challenge.params.get("qop") ?? "").split(",").map((q) => q.trim());
    const qop = body !== undefined && offered.includes("auth-int") ? "auth-int" : "auth";
    if (!offered.includes(qop)) throw new Error(`the server does not offer qop ${qop}`);
    const d = {
      algorithm: challenge.params.get("algorithm") ?? "MD5",
      user,
      realm: challenge.params.get("realm") ?? "",
      password,
      nonce: challenge.params.get("nonce") ?? "",
      nc: "00000001",
      cnonce,
      qop,
      method,
      uri,
      body,
      opaque: challenge.params.get("opaque"),
    };
    reply = await wire.send(url, { method, body, headers: { authorization: authorization(d, digest(d)) } });
    if (reply.ok) {
      const text = await reply.text();
      verifyRspauth(reply, d, text);
      return { ok: true, text };
    }
  }
  return { ok: reply.ok, text: await reply.text() };
}

/** rspauth: the digest with an empty method; with auth-int it hashes the reply's body (RFC 2617 §3.2.3). */
function verifyRspauth(reply, d, text) {
  const info = parseChallenges(`x ${reply.headers.get("authentication-info") ?? ""}`)[0]?.params;
  if (!info?.has("rspauth")) return;
  if (info.get("rspauth") !== digest({ ...d, method: "", body: text }))
    throw new Error("rspauth does not prove the server knows the secret");
}

// Run as a command, not imported: node started this file, by whatever path or link it was given.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  const [method, url, user, password, body] = process.argv.slice(2);
  try {
    const reply = await request(method, url, user, password, body);
    process.stdout.write(reply.text);
    process.exitCode = reply.ok ? 0 : 1;
  } catch (error) {
    process.stderr.write(`client: ${error.message}\n`);
    process.exitCode = 1;
  }
}
