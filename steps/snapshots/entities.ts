/**
 * The entries of SNAP-14: the next version of a resource with a document type that declares an
 * entity, its title a reference to it, and what would show that the server expanded or
 * resolved it. sxd only writes these bodies and reads replies (bounded as every reply is); it
 * never expands an entity itself.
 *
 *   const probe = entityProbe("an internal entity");
 *   probe.body(entryBody(id, version)); // <!DOCTYPE entry [<!ENTITY sxd… "…">]> … <title>&sxd…;</title>
 *   probe.evidence(["…the marker…"]);   // "the entity's text in the reply: sxd-entity-…"
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";

export type EntityKind = "internal" | "recursive" | "file" | "address";

export const ENTITY_KINDS: Record<string, EntityKind> = {
  "an internal entity": "internal",
  "an entity expanded recursively, five levels of ten": "recursive",
  "an external entity naming the file /etc/passwd": "file",
  "an external entity naming an address of sxd's": "address",
};

export interface EntityProbe {
  kind: EntityKind;
  /** The entry with the DOCTYPE after its XML declaration and its title replaced by the entity reference. */
  body(entry: string, address?: string): string;
  /** What in these texts (replies) shows an expansion or a read, in words; undefined where nothing does. */
  evidence(texts: readonly string[]): string | undefined;
}

/** Levels and references per level of the recursive entity: 10^5 copies of its text, about 1.5 MB, from 300 bytes. */
const LEVELS = 5;
const PER_LEVEL = 10;

/** A line of /etc/passwd as every Unix system has it: the superuser's, with uid and gid 0. */
const PASSWD_LINE = /root:[^:\n]*:0:0:/;

/** A reply with its document type taken out: a server that stores the body as sent shows the declarations, not their use. */
function withoutDoctype(text: string): string {
  return text.replace(/<!DOCTYPE[\s\S]*?\]\s*>/g, "");
}

export function entityProbe(name: string): EntityProbe {
  const kind = ENTITY_KINDS[name];
  if (kind === undefined) throw new Error(`no entity named "${name}" in the suite`);
  const tag = randomBytes(6).toString("hex");
  const entity = `sxd${tag}`;
  const declared = (declarations: string, entry: string) =>
    entry
      .replace(/^(<\?xml[^>]*\?>\n?)?/, (declaration) => `${declaration}<!DOCTYPE entry [${declarations}]>\n`)
      .replace(/<title>[^<]*<\/title>/, `<title>&${entity};</title>`);
  const marker = `sxd-entity-${tag}`;
  const found = (texts: readonly string[], test: (text: string) => boolean) => texts.map(withoutDoctype).some(test);
  switch (kind) {
    case "internal":
      return {
        kind,
        body: (entry) => declared(`<!ENTITY ${entity} "${marker}">`, entry),
        evidence: (texts) => (found(texts, (t) => t.includes(marker)) ? `the entity's text ${marker}` : undefined),
      };
    case "recursive": {
      const levels = Array.from(
        { length: LEVELS },
        (_, k) => `<!ENTITY ${entity}${k + 1} "${`&${entity}${k};`.repeat(PER_LEVEL)}">`,
      );
      const declarations = [
        `<!ENTITY ${entity}0 "${marker}">`,
        ...levels,
        `<!ENTITY ${entity} "&${entity}${LEVELS};">`,
      ];
      return {
        kind,
        body: (entry) => declared(declarations.join(""), entry),
        evidence: (texts) =>
          found(texts, (t) => t.includes(marker)) ? `the innermost entity's text ${marker}, expanded` : undefined,
      };
    }
    case "file":
      return {
        kind,
        body: (entry) => declared(`<!ENTITY ${entity} SYSTEM "file:///etc/passwd">`, entry),
        evidence: (texts) =>
          found(texts, (t) => PASSWD_LINE.test(t)) ? "a line of /etc/passwd (root:…:0:0:)" : undefined,
      };
    case "address":
      return {
        kind,
        body: (entry, address) =>
          declared(
            `<!ENTITY % ${entity}p SYSTEM "${address}/${marker}.dtd"> %${entity}p; <!ENTITY ${entity} SYSTEM "${address}/${marker}">`,
            entry,
          ),
        evidence: () => undefined,
      };
  }
}

/** Whether a reply took much longer than the plain PUT's: ten times, and two seconds at least. */
export function muchSlower(flawedMs: number, plainMs: number): boolean {
  return flawedMs > 2000 && flawedMs > 10 * plainMs;
}

/** A listener of sxd's own: any connection to it proves that the server resolved an address the body named. */
export interface ProbeListener {
  url: string;
  /** The connections so far and the first request line, where one came. */
  hits(): { connections: number; firstRequest?: string };
  close(): Promise<void>;
}

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

/**
 * A listener on the address of sxd that the target sees: loopback for a target on this host,
 * otherwise the local address of a connection to the target. Undefined where no connection
 * to the target can be made.
 */
export async function probeListener(targetUrl: string): Promise<ProbeListener | undefined> {
  const target = new URL(targetUrl);
  const host = LOOPBACK.test(target.hostname)
    ? "127.0.0.1"
    : await localAddressTowards(
        target.hostname.replace(/^\[|\]$/g, ""),
        Number(target.port || (target.protocol === "https:" ? 443 : 80)),
      );
  if (host === undefined) return undefined;
  let connections = 0;
  let firstRequest: string | undefined;
  const server: Server = createServer((request, response) => {
    firstRequest ??= `${request.method} ${request.url}`;
    response.writeHead(404).end();
  });
  server.on("connection", () => {
    connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    hits: () => ({ connections, firstRequest }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function localAddressTowards(host: string, port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 3000 });
    const done = (address: string | undefined) => {
      socket.destroy();
      resolve(address);
    };
    socket.once("connect", () => done(socket.localAddress));
    socket.once("timeout", () => done(undefined));
    socket.once("error", () => done(undefined));
  });
}
