/**
 * How sxd reaches a target: undici with the run's timeouts, the TLS settings of `--ca` and
 * `--insecure`, and the proxy of the environment (HTTPS_PROXY, HTTP_PROXY, NO_PROXY), as
 * curl and most HTTP tools read it. The probe and every scenario's client use the same one.
 */
import { HELD_UP_STRETCH } from "./transport.ts";
import { Agent, type Dispatcher, EnvHttpProxyAgent } from "./undici.ts";

export interface TlsSettings {
  /** PEM text of the authority that signed the target's certificate (`--ca FILE`). */
  ca?: string;
  /** Certificates are not checked (`--insecure`). */
  insecure?: boolean;
}

export function targetDispatcher(timeoutMs: number, tls: TlsSettings = {}): Dispatcher {
  const checks = {
    ...(tls.ca === undefined ? {} : { ca: tls.ca }),
    ...(tls.insecure ? { rejectUnauthorized: false } : {}),
  };
  // Each request's own limit (replyTimeLimit) is what ends it: it leaves out the time this
  // process was held up, so undici's timeouts are only its stretched bound.
  const bound = timeoutMs * HELD_UP_STRETCH;
  const options = { connectTimeout: bound, headersTimeout: bound, bodyTimeout: bound, connect: checks };
  const env = process.env;
  const proxied = [env.HTTPS_PROXY, env.https_proxy, env.HTTP_PROXY, env.http_proxy].some(Boolean);
  // As curl does: an http:// request goes to the proxy with its absolute URI, an https:// one
  // through a CONNECT tunnel, in which the target's certificate is checked (requestTls).
  return proxied ? new EnvHttpProxyAgent({ ...options, requestTls: checks, proxyTunnel: false }) : new Agent(options);
}
