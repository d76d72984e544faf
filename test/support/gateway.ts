/**
 * The bundled reference behind a rate-limiting gateway, as staging servers often are: one
 * token bucket for the client across the three servers; a request that finds the bucket empty
 * gets 429 (with `Retry-After` where asked) and never reaches the server. Links in replies are
 * rewritten to the gateway's addresses. The messaging server fetches contacts directly, or,
 * with `backendThroughGateway`, through the gateway and from the same bucket, as a messaging
 * server deployed behind it would (its public URLs are the gateway's).
 *
 * With `lockout`, it also locks the client out for a while after failed logins, as servers do.
 *
 *   const gateway = await gatedReference({ perSecond: 10, burst: 5 });
 *   … run against gateway.target …; gateway.refused, gateway.forwarded
 */

import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Writable } from "node:stream";
import { request } from "undici";
import { resolveDescription, type TargetDescription } from "../../harness/description/target.ts";
import { runConformance, type SuiteRun } from "../../harness/run/run.ts";
import { REFERENCE_DESCRIPTION, startReference } from "../../reference/index.ts";
import { scratchDir } from "./scratch.ts";
import { TEST_SECURITY_SAMPLES } from "./security-samples.ts";

export interface GatewayRules {
  /** Tokens added per second; a request takes one. */
  perSecond: number;
  /** The bucket's size: requests that may come at once. */
  burst: number;
  /** Seconds sent as Retry-After with each 429; absent: no Retry-After. */
  retryAfter?: number;
  /** Every request gets 429, whatever the bucket holds. */
  refuseAll?: boolean;
  /** The messaging server's request to the contacts server passes the gateway too. */
  backendThroughGateway?: boolean;
  /**
   * A login lockout: after this many failed logins (a 401 to a request with credentials), every
   * request gets 429 without Retry-After for `seconds`, once.
   */
  lockout?: { failedLogins: number; seconds: number };
}

export interface Gateway {
  target: TargetDescription;
  /** A messaging server whose contacts server is down (EXP-8), not behind the gateway. */
  outageMessagingUrl: string;
  refused: number;
  /** Of those, refused during the lockout. */
  lockedOut: number;
  /** Of those, the messaging server's own requests to the contacts server (no sxd User-Agent). */
  refusedBackend: number;
  forwarded: number;
  close(): Promise<void>;
}

// Cucumber forks its parallel workers: run from the TypeScript, they need the loader this process
// has (the tests' own build, scripts/test-tree.mjs, is JavaScript).
const tsx = import.meta.resolve("tsx");
if (import.meta.url.endsWith(".ts") && !(process.env.NODE_OPTIONS ?? "").includes(tsx)) {
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ""} --import ${tsx}`.trim();
}

export interface GatedRun extends SuiteRun {
  output: string;
  report: string;
  seconds: number;
}

export async function runBehind(
  gateway: Gateway,
  options: { rate?: number; tags?: string; securitySamples?: number; parallel?: number } = {},
): Promise<GatedRun> {
  let output = "";
  const sink = new Writable({
    write(chunk, _encoding, done) {
      output += String(chunk);
      done();
    },
  });
  const reportDir = scratchDir("sxd-gateway-");
  const started = performance.now();
  const run = await runConformance(
    {
      target: gateway.target,
      outageMessagingUrl: gateway.outageMessagingUrl,
      tags: options.tags,
      strict: true,
      reportDir,
      timeoutMs: 5000,
      // As sxd runs by default: one process, several scenarios at once. `parallel` forks workers,
      // which share the pace between them (each takes its share of --rate).
      parallel: options.parallel,
      securitySamples: options.securitySamples ?? TEST_SECURITY_SAMPLES,
      harFile: undefined,
      deadlineSeconds: 600,
      rate: options.rate,
    },
    { stdout: sink, stderr: sink },
  );
  const seconds = (performance.now() - started) / 1000;
  const report = readFileSync(join(reportDir, "conformance.json"), "utf8");
  return { ...run, output, report, seconds };
}

const SERVERS = ["base", "contacts", "messaging"] as const;

export async function gatedReference(rules: GatewayRules): Promise<Gateway> {
  const ports = { base: 0, contacts: 0, messaging: 0 };
  const outage = await startReference({
    host: "127.0.0.1",
    ports,
    servers: ["messaging"],
    publicUrls: { contacts: "http://127.0.0.1:9" },
  });
  const bucket = { tokens: rules.burst, at: Date.now() };
  const lockout = { failedLogins: 0, until: Number.NEGATIVE_INFINITY };
  const lockedOut = (now: number): boolean => now < lockout.until;
  const take = (): boolean => {
    const now = Date.now();
    if (lockedOut(now)) {
      gateway.lockedOut++;
      return false;
    }
    bucket.tokens = Math.min(rules.burst, bucket.tokens + ((now - bucket.at) / 1000) * rules.perSecond);
    bucket.at = now;
    if (rules.refuseAll || bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  };
  // The gateway listens first: a reference behind it needs its addresses to start.
  const upstreams: Record<string, string> = {};
  const rewrites: Array<[string, string]> = [];
  const proxies: Server[] = [];
  const stops: Array<() => Promise<void>> = [() => outage.close()];
  const gateway: Gateway = {
    target: undefined as unknown as TargetDescription,
    outageMessagingUrl: outage.urls.messaging,
    refused: 0,
    lockedOut: 0,
    refusedBackend: 0,
    forwarded: 0,
    close: async () => {
      for (const proxy of proxies) proxy.closeAllConnections();
      await Promise.all(proxies.map((proxy) => new Promise((resolve) => proxy.close(resolve))));
      await Promise.all(stops.map((stop) => stop()));
    },
  };
  const urls: Record<string, string> = {};
  for (const name of SERVERS) {
    const proxy = createServer((request, response) => {
      if (!take()) {
        gateway.refused++;
        if (!request.headers["user-agent"]?.startsWith("sxd/")) gateway.refusedBackend++;
        response.writeHead(429, rules.retryAfter === undefined ? {} : { "retry-after": String(rules.retryAfter) });
        response.end("Too Many Requests");
        return;
      }
      gateway.forwarded++;
      forward(request, response, upstreams[name], rewrites)
        .then((status) => {
          if (rules.lockout === undefined || status !== 401 || request.headers.authorization === undefined) return;
          if (++lockout.failedLogins === rules.lockout.failedLogins)
            lockout.until = Date.now() + rules.lockout.seconds * 1000;
        })
        .catch(() => response.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    proxies.push(proxy);
    urls[name] = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  }
  const publicUrls = rules.backendThroughGateway
    ? { base: urls.base, contacts: urls.contacts, messaging: urls.messaging }
    : undefined;
  const reference = await startReference({ host: "127.0.0.1", ports, publicUrls });
  stops.push(() => reference.close());
  for (const name of SERVERS) {
    upstreams[name] = reference.boundUrls[name] ?? reference.urls[name];
    rewrites.push([upstreams[name], urls[name]]);
  }
  const resolved = resolveDescription([
    REFERENCE_DESCRIPTION,
    { baseUrl: urls.base, contactsUrl: urls.contacts, messagingUrl: urls.messaging },
  ]);
  if (!resolved.ok) throw new Error(resolved.error);
  gateway.target = resolved.value;
  return gateway;
}

async function forward(
  request_: IncomingMessage,
  response: ServerResponse,
  upstream: string,
  rewrites: Array<[string, string]>,
): Promise<number> {
  const chunks: Buffer[] = [];
  for await (const chunk of request_) chunks.push(chunk as Buffer);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request_.headers)) {
    if (typeof value === "string" && !["host", "connection", "content-length"].includes(name)) headers[name] = value;
  }
  // undici's request, not fetch: the suite sends GET with a body (auth-int), which fetch refuses.
  const reply = await request(upstream + request_.url, {
    method: request_.method as "GET",
    headers,
    body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
  });
  const rewrite = (text: string) => rewrites.reduce((out, [from, to]) => out.replaceAll(from, to), text);
  const replyHeaders: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(reply.headers)) {
    if (value === undefined || ["connection", "content-length", "transfer-encoding", "keep-alive"].includes(name))
      continue;
    replyHeaders[name] = Array.isArray(value) ? value.map(rewrite) : rewrite(value);
  }
  const body = rewrite(await reply.body.text());
  response.writeHead(reply.statusCode, replyHeaders);
  response.end(request_.method === "HEAD" ? undefined : body);
  return reply.statusCode;
}
