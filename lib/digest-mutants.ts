/**
 * Mutants of one valid Digest Authorization (RFC 7616 §3.4): each directive left out, emptied,
 * cut, made overlong, given twice, badly quoted, or given a value from elsewhere. Where a
 * mutation changes what the digest covers (username, realm, nonce, uri, qop, nc, cnonce, the
 * method), the response is recomputed as a client would compute it, so that a server which
 * skips the one check the mutation aims at grants it. Pure and deterministic: the same base,
 * mutations and seed give the same header.
 *
 *   const base = { directives, password: "Circle of Life", method: "GET" };
 *   for (const mutation of singleMutations(base)) send(mutate(base, [mutation]).authorization);
 *
 * A mutant either changes what the credentials prove (another user, a nonce never issued, a
 * response that does not match: it must never get access) or is malformed (it must be
 * refused, with 400 or 401); `changesMeaning` says which.
 */
import { type Directive, formatParams } from "./auth-params.ts";
import { type Formula, hashA1, hashOf, parseAlgorithm, type Qop, responseDigest } from "./digest-math.ts";

export interface MutationBase {
  /** The directives of an Authorization the server granted, in the order sent. */
  directives: readonly Directive[];
  password: string;
  method: string;
  /** The body an auth-int digest covers. */
  body?: string;
  /** The formula the server took (default RFC 7616's). */
  formula?: Formula;
}

export const MUTATION_KINDS = [
  "drop",
  "empty",
  "cut",
  "overlong",
  "other",
  "stale",
  "other-method",
  "double-before",
  "double-after",
  "unclosed",
  "inner-quote",
  "no-opening-quote",
] as const;
export type MutationKind = (typeof MUTATION_KINDS)[number];

export interface Mutation {
  directive: string;
  kind: MutationKind;
  /** For overlong: how many characters are added (default 1024). */
  size?: number;
}

export interface Mutant {
  mutations: Mutation[];
  /** Another user, a nonce never issued or a response that does not match: never to be granted. */
  changesMeaning: boolean;
  authorization: string;
}

/**
 * The directives whose value the response covers (RFC 7616 §3.4.1); SPEC.md's formula leaves the
 * last three out. The algorithm is not among them: a client names one it can compute, so a mutated
 * algorithm keeps the digest of the one that got in (left out, it would be a valid MD5 answer).
 */
const COVERED_RFC = ["username", "realm", "nonce", "uri", "qop", "nc", "cnonce"];
const COVERED_SPEC = ["username", "realm", "nonce", "uri"];
/** A value of one of these that the server did not expect names another user or a nonce it never issued. */
const IDENTITY = ["username", "nonce", "response"];
const DEFAULT_OVERLONG = 1024;

export const mutationId = (m: Mutation) => `${m.directive}:${m.kind}${m.size === undefined ? "" : `:${m.size}`}`;

export function parseMutationId(id: string): Mutation | undefined {
  const [directive, kind, size] = id.split(":");
  if (!directive || !(MUTATION_KINDS as readonly string[]).includes(kind)) return undefined;
  if (size !== undefined && !/^\d{1,6}$/.test(size)) return undefined;
  return { directive, kind: kind as MutationKind, ...(size === undefined ? {} : { size: Number(size) }) };
}

const covered = (base: MutationBase) => (base.formula === "spec" ? COVERED_SPEC : COVERED_RFC);

/** Whether a mutation of this kind changes what the credentials prove rather than their form. */
export function changesMeaning(m: Mutation): boolean {
  if (m.kind === "stale" || m.kind === "other-method") return true;
  if (m.directive === "algorithm" && m.kind === "drop") return true;
  return IDENTITY.includes(m.directive) && ["empty", "cut", "overlong", "other"].includes(m.kind);
}

/**
 * Every single mutation that applies to this base, in a fixed order. Left out are those a
 * client may make freely (another cnonce, recomputed) and those equal to the base (dropping
 * algorithm where it is MD5, the default).
 */
export function singleMutations(base: MutationBase): Mutation[] {
  const names = base.directives.map((d) => d.name);
  const has = (name: string) => names.includes(name);
  const mutations: Mutation[] = [];
  for (const directive of names) {
    const free = directive === "cnonce" || directive === "userhash";
    for (const kind of ["drop", "empty", "cut", "overlong", "other"] as const) {
      if (free && kind !== "drop") continue;
      if (directive === "algorithm" && kind === "drop" && algorithmOf(base) === "MD5") continue;
      mutations.push({ directive, kind, ...(kind === "overlong" ? { size: DEFAULT_OVERLONG } : {}) });
    }
    for (const kind of ["double-before", "double-after", "unclosed", "inner-quote", "no-opening-quote"] as const)
      mutations.push({ directive, kind });
  }
  if (base.formula !== "spec" && has("qop")) {
    mutations.push({ directive: "cnonce", kind: "stale" }, { directive: "nc", kind: "stale" });
  }
  mutations.push({ directive: "response", kind: "other-method" });
  return mutations;
}

/** Whether the mutation is one of those that apply to this base (its size aside). */
export function applies(base: MutationBase, mutation: Mutation): boolean {
  return singleMutations(base).some((m) => m.directive === mutation.directive && m.kind === mutation.kind);
}

/** The base with the mutations applied, in order, and the response recomputed where they change what it covers. */
export function mutate(base: MutationBase, mutations: readonly Mutation[]): Mutant {
  const values = new Map(base.directives.map((d) => [d.name, d.value]));
  const quoted = new Map(base.directives.map((d) => [d.name, d.quoted]));
  const order = base.directives.map((d) => d.name);
  let recompute = false;
  let method = base.method;
  for (const m of mutations) {
    if (m.directive === "response" || !values.has(m.directive)) continue;
    const before = values.get(m.directive) ?? "";
    if (m.kind === "drop") values.delete(m.directive);
    else if (m.kind === "empty") values.set(m.directive, "");
    else if (m.kind === "cut") values.set(m.directive, before.slice(0, Math.floor(before.length / 2)));
    else if (m.kind === "overlong") values.set(m.directive, longer(m.directive, before, m.size ?? DEFAULT_OVERLONG));
    else if (m.kind === "other") values.set(m.directive, m.directive === "nc" ? "0" : otherValue(m.directive, before));
    else continue;
    if (covered(base).includes(m.directive)) recompute = true;
  }
  if (mutations.some((m) => m.kind === "other-method")) {
    method = base.method === "POST" ? "PUT" : "POST";
    recompute = true;
  }
  if (recompute && values.has("response")) values.set("response", digestOf(base, values, method));
  for (const m of mutations) {
    if (m.kind !== "stale" || !values.has(m.directive)) continue;
    values.set(m.directive, otherValue(m.directive, values.get(m.directive) ?? ""));
  }
  for (const m of mutations) {
    if (m.directive !== "response" || !values.has("response")) continue;
    const response = values.get("response") ?? "";
    if (m.kind === "drop") values.delete("response");
    else if (m.kind === "empty") values.set("response", "");
    else if (m.kind === "cut") values.set("response", response.slice(0, Math.floor(response.length / 2)));
    else if (m.kind === "overlong") values.set("response", longer("response", response, m.size ?? DEFAULT_OVERLONG));
    else if (m.kind === "other") values.set("response", otherValue("response", response));
  }
  const parts = order
    .filter((name) => values.has(name))
    .flatMap((name) => render(name, values.get(name) ?? "", quoted.get(name) ?? false, mutations));
  const unclosed = parts.filter((p) => p.last);
  const text = [...parts.filter((p) => !p.last), ...unclosed].map((p) => p.text).join(", ");
  return {
    mutations: [...mutations],
    changesMeaning: mutations.some(changesMeaning),
    authorization: `Digest ${text}`,
  };
}

/** One directive as written, with its doubling or broken quoting; an unclosed quote goes last. */
function render(
  name: string,
  value: string,
  quoted: boolean,
  mutations: readonly Mutation[],
): Array<{ text: string; last?: boolean }> {
  const mine = mutations.filter((m) => m.directive === name);
  let text = formatParams([{ name, value, quoted }]);
  let last = false;
  for (const m of mine) {
    if (m.kind === "unclosed") {
      text = `${name}="${value}`;
      last = true;
    } else if (m.kind === "inner-quote") {
      const half = Math.floor(value.length / 2);
      text = `${name}="${value.slice(0, half)}"${value.slice(half)}"`;
    } else if (m.kind === "no-opening-quote") text = `${name}=${value}"`;
  }
  const parts = [{ text, last }];
  const other = () => formatParams([{ name, value: otherValue(name, value), quoted }]);
  if (mine.some((m) => m.kind === "double-before")) parts.unshift({ text: other(), last: false });
  if (mine.some((m) => m.kind === "double-after")) parts.push({ text: other(), last: false });
  return parts;
}

/** A value of the same directive from elsewhere: another user, realm, resource, nonce, count or kind. */
function otherValue(name: string, value: string): string {
  switch (name) {
    case "username":
      return `${value}-sxd-nobody`;
    case "realm":
    case "opaque":
    case "cnonce":
      return `${value}-other`;
    case "nonce":
      return [...value].reverse().join("") === value ? `${value}x` : [...value].reverse().join("");
    case "uri":
      return `${value}${value.includes("?") ? "&" : "?"}sxd-other=1`;
    case "nc": {
      const count = Number.parseInt(value, 16);
      return Number.isNaN(count) ? "0" : (count + 1).toString(16).padStart(8, "0");
    }
    case "qop":
      return "auth-conf";
    case "algorithm":
      return "X-SXD-UNKNOWN";
    case "response":
      return `${value.slice(0, -1)}${value.endsWith("0") ? "1" : "0"}`;
    default:
      return `${value}-other`;
  }
}

/** The value with `size` characters more: nc gets leading zeros (same count), uri a query, response hex digits. */
function longer(name: string, value: string, size: number): string {
  if (name === "nc") return `${"0".repeat(size)}${value}`;
  if (name === "uri") return `${value}${value.includes("?") ? "&" : "?"}sxd=${"x".repeat(size)}`;
  return `${value}${(name === "response" ? "0" : "x").repeat(size)}`;
}

function algorithmOf(base: MutationBase): string {
  const named = base.directives.find((d) => d.name === "algorithm")?.value;
  return parseAlgorithm(named) ?? "MD5";
}

/** The response a client computes from these values: an unknown algorithm is computed as the base's. */
function digestOf(base: MutationBase, values: ReadonlyMap<string, string>, method: string): string {
  const algorithm = parseAlgorithm(values.get("algorithm")) ?? parseAlgorithm(algorithmOf(base)) ?? "MD5";
  const qop = values.get("qop");
  return responseDigest({
    algorithm,
    ha1: hashA1(hashOf(algorithm), values.get("username") ?? "", values.get("realm") ?? "", base.password),
    nonce: values.get("nonce") ?? "",
    method,
    uri: values.get("uri") ?? "",
    // An unknown qop enters the digest as written, as a client that sends it would compute it.
    qop: qop as Qop | undefined,
    nc: values.get("nc"),
    cnonce: values.get("cnonce"),
    body: base.body,
    formula: base.formula,
  });
}

/** A small seeded generator (mulberry32): the fuzzer's choices replay from the seed alone. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One to three mutations drawn from the single ones, overlong sizes drawn too. */
export function randomMutations(base: MutationBase, random: () => number): Mutation[] {
  const singles = singleMutations(base);
  const count = 1 + Math.floor(random() * 3);
  const chosen: Mutation[] = [];
  for (let i = 0; i < count; i++) {
    const pick = singles[Math.floor(random() * singles.length)];
    if (chosen.some((m) => m.directive === pick.directive)) continue;
    chosen.push(pick.kind === "overlong" ? { ...pick, size: 1 + Math.floor(random() ** 2 * 8192) } : pick);
  }
  return chosen;
}
