/**
 * The tokens of the fault mode exp-token-counter, as a server makes them that numbers its
 * links: each read of a list gets the next number (sixteen decimal digits, a stride apart), and the servers
 * look the number up in a table of those they issued, with its user and expiry. No token can
 * be forged by changing one, yet anyone who read two can compute the next (EXP-10). The table
 * is shared by the servers of one key (the contacts server that issues, the messaging server
 * that checks, in one process) and keeps the last CAPACITY tokens, a fault's memory, bounded.
 *
 * The "hashed" shape (fault exp-token-escaped-counter) numbers by one and shows each number
 * beside its SHA-256, keyed by nothing: `17|<hex>`, which the link writes `17%7C<hex>`.
 */
import { createHash } from "node:crypto";
import type { TokenCheck } from "./token.ts";

export type CountedShape = "padded" | "hashed";

interface Issued {
  subject: string;
  expiresAt: number;
}

interface Table {
  next: number;
  issued: Map<string, Issued>;
}

const CAPACITY = 10_000;
/**
 * How far the counter moves per token: a stride, not 1, so that a number one step from a
 * served one (EXP-6's forgery) is never a token issued to anybody, and the fault shows the
 * weakness EXP-10 is about alone. The sequencer finds a counter of any step.
 */
const STEP = 7919;
const tables = new Map<string, Table>();

function tableOf(key: string, shape: CountedShape): Table {
  let table = tables.get(`${shape}:${key}`);
  if (!table) {
    table = { next: 0, issued: new Map() };
    tables.set(`${shape}:${key}`, table);
  }
  return table;
}

export function mintCounted(key: string, subject: string, expiresAt: number, shape: CountedShape = "padded"): string {
  const table = tableOf(key, shape);
  const number = table.next;
  const token =
    shape === "padded"
      ? String(number).padStart(16, "0")
      : `${number}|${createHash("sha256").update(String(number)).digest("hex")}`;
  table.next += shape === "padded" ? STEP : 1;
  table.issued.set(token, { subject, expiresAt });
  if (table.issued.size > CAPACITY) table.issued.delete(table.issued.keys().next().value as string);
  return token;
}

export function verifyCounted(
  key: string,
  subject: string,
  token: string | undefined,
  now: number,
  shape: CountedShape = "padded",
): TokenCheck {
  if (token === undefined || token === "") return { ok: false, reason: "missing" };
  const issued = tableOf(key, shape).issued.get(token);
  if (issued?.subject !== subject) return { ok: false, reason: "invalid" };
  return issued.expiresAt <= now ? { ok: false, reason: "expired" } : { ok: true };
}
