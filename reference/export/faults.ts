/**
 * Faulty modes of the export servers, each breaking the EXP rows it names. `exportPolicy`
 * reads the active modes once into the decisions the two servers take, so they ask what to
 * do, never which mode is on.
 */
import { XML_TYPE } from "../../lib/media-type.ts";
import type { FaultInfo } from "../fault-info.ts";
import type { TokenScheme } from "./token-schemes.ts";

export const exportFaults = {
  "exp-list-wrong-type": {
    breaks: ["EXP-1"],
    description: "the contact list is served as text/plain instead of application/xml;charset=UTF-8",
  },
  "exp-no-self-link": {
    breaks: ["EXP-2"],
    description: "the contact list has no self link",
  },
  "exp-relative-self": {
    breaks: ["EXP-2"],
    description: "the contact list's self link has a relative href",
  },
  "exp-link-no-title": {
    breaks: ["EXP-3"],
    description: "the export link has no title",
  },
  "exp-link-query-token": {
    breaks: ["EXP-3"],
    description: "the export link carries its token as a query (?t=) instead of a path parameter (;t=)",
  },
  "exp-302-not-303": {
    breaks: ["EXP-4"],
    description: "the export is answered 302 Found instead of 303 See Other",
  },
  "exp-wrong-location": {
    breaks: ["EXP-4"],
    description: "the export's Location points at the contacts server's list, not the result on the messaging server",
  },
  "exp-body-required": {
    breaks: ["EXP-4", "EXP-5"],
    description:
      "the messaging server imports, then answers 400 to an export POST without a body as if it wanted the contacts",
  },
  "exp-contacts-not-fetched": {
    // Never fetching also means never noticing that the contacts server is down.
    breaks: ["EXP-5", "EXP-7", "EXP-8"],
    description: "the messaging server answers 303 without fetching the contacts",
  },
  "exp-import-stores-nothing": {
    breaks: ["EXP-5", "EXP-7"],
    description: "the messaging server fetches the contacts and answers 303, but stores none of them",
  },
  "exp-refuses-every-export": {
    // The token cases have no accepted request to stand on, so EXP-6 is not run, never passed.
    breaks: ["EXP-4", "EXP-5", "EXP-7", "EXP-8"],
    description: "the messaging server refuses every export with 403, whatever the token",
  },
  "exp-token-tail-unchecked": {
    breaks: ["EXP-6"],
    description: "the messaging server compares tokens without their last four characters",
  },
  "exp-token-shape-unchecked": {
    breaks: ["EXP-6"],
    description: "the messaging server checks only tokens of its own shape and lets any other through",
  },
  "exp-token-not-checked": {
    breaks: ["EXP-6"],
    description: "the messaging server exports whatever token the link carries",
  },
  "exp-token-not-user-bound": {
    breaks: ["EXP-6"],
    description: "the token signs only its expiry, not the user: one user's link exports any user's contacts",
  },
  "exp-token-counter": {
    breaks: ["EXP-10"],
    description:
      "numbers its links: each read of the list gets the next number (the counter steps by 7919) as its token, checked against a table of those issued, so anyone who read two knows the next",
  },
  "exp-token-escaped-counter": {
    breaks: ["EXP-10"],
    description:
      "numbers its links by one and shows each number beside its SHA-256, keyed by nothing (17|<hex>, written 17%7C<hex> in the link), checked against a table of those issued: decoded, anyone who read one knows the next",
  },
  "exp-token-unsigned-user": {
    breaks: ["EXP-6"],
    description: "the token is the user name in base64url, signed by nothing: any user's token is one encoding away",
  },
  "exp-token-unsigned-expiry": {
    breaks: ["EXP-6"],
    description: "the token shows its expiry in decimal beside a MAC of the user alone: the expiry can be moved",
  },
  "exp-token-escaped-unsigned-expiry": {
    breaks: ["EXP-6"],
    description:
      "the token is a version byte 0x80 and user|expiry|hex MAC of the user, percent-encoded in the link: decoded, its expiry can be moved",
  },
  "exp-token-jwt-alg-none": {
    breaks: ["EXP-6"],
    description: "the token is an HS256 JWT, and one whose header says alg none is taken without a signature",
  },
  "exp-token-jwt-unverified": {
    breaks: ["EXP-6"],
    description: "the token is a JWT whose claims are read and never verified: its signature is not checked",
  },
  "exp-duplicate-on-repeat": {
    breaks: ["EXP-7"],
    description: "each export adds the contacts again instead of replacing the previous copy",
  },
  "exp-import-not-serialised": {
    breaks: ["EXP-7"],
    description:
      "imports of one user are not serialised: an import empties the user's copy and refills it a moment later, and a POST that comes meanwhile joins that refill and is answered at once, so concurrent POSTs leave the contacts several times and an export answered meanwhile finds its copy empty",
  },
  "exp-outage-303": {
    breaks: ["EXP-8"],
    description: "when the contacts server cannot be reached the export is still answered 303",
  },
  "exp-outage-no-error-body": {
    breaks: ["EXP-8"],
    description: "when the contacts server cannot be reached the 502 reply has no error body",
  },
  "exp-outage-drops-copy": {
    breaks: ["EXP-8"],
    description:
      "when the contacts server cannot be reached the messaging server answers 502 but empties what it held for the user",
  },
  "exp-import-compares-each-held": {
    breaks: [],
    grows: ["LIM-5"],
    description:
      "an import compares each contact fetched with every one imported before it, each read back from storage: its time grows with the square of the list's length",
  },
  "exp-upload-ignored": {
    breaks: ["EXP-9"],
    description: "the upload endpoint accepts contacts and drops them",
  },
} satisfies Record<string, FaultInfo>;

type ExportFault = keyof typeof exportFaults;

/** Where the export servers depart from SPEC.md; without faults, every field says what it says. */
export interface ExportPolicy {
  // The contacts server's list
  listType: string;
  selfLink: "absolute" | "relative" | "none";
  exportLinkHasTitle: boolean;
  /** How the export link carries its token: a path parameter (;t=) or a query (?t=). */
  tokenIn: "path" | "query";
  /** How a token is made and checked: the reference's HMAC, or a weak scheme (token-schemes.ts). */
  tokenScheme: TokenScheme;
  /** Whether a token signs its user, so one user's link exports nobody else's contacts. */
  bindsTokenToUser: boolean;

  // The messaging server's export
  refusesEveryExport: boolean;
  checksToken: boolean;
  /** Whether a token not of this server's shape is refused (rather than let through). */
  checksTokenShape: boolean;
  /** Whether a token's last four characters are compared too. */
  checksTokenTail: boolean;
  fetchesContacts: boolean;
  /** What an import does with the fetched contacts: replace the user's copy, add to it, or forget them. */
  importStores: "replace" | "append" | "nothing";
  /** Whether imports of one user wait for each other (else they overlap: import-store.ts, UnserialisedImports). */
  serialisesImports: boolean;
  /** Whether an import compares each contact with every one before it, read back from storage (import-store.ts). */
  importComparesEachHeld: boolean;
  /** When the contacts server cannot be reached: the status's error body, a bare status, or 303 as if all went well. */
  outageReply: "error-body" | "bare-status" | "see-other";
  /** When the contacts server cannot be reached, the user's copy is emptied. */
  outageDropsCopy: boolean;
  /** An export POST without a body is refused with 400 (after the import). */
  requiresBody: boolean;
  exportStatus: 303 | 302;
  /** Where the export reply sends the client: the result on the messaging server, or the contacts list. */
  exportLocation: "result" | "contacts-list";
  /** Whether an upload's contacts are kept. */
  storesUpload: boolean;
}

export function exportPolicy(active: ReadonlySet<string>): ExportPolicy {
  const on = (fault: ExportFault) => active.has(fault);
  return {
    listType: on("exp-list-wrong-type") ? "text/plain;charset=UTF-8" : XML_TYPE,
    selfLink: on("exp-no-self-link") ? "none" : on("exp-relative-self") ? "relative" : "absolute",
    exportLinkHasTitle: !on("exp-link-no-title"),
    tokenIn: on("exp-link-query-token") ? "query" : "path",
    bindsTokenToUser: !on("exp-token-not-user-bound"),
    tokenScheme: on("exp-token-unsigned-user")
      ? "unsigned-user"
      : on("exp-token-unsigned-expiry")
        ? "unsigned-expiry"
        : on("exp-token-escaped-unsigned-expiry")
          ? "escaped-unsigned-expiry"
          : on("exp-token-jwt-alg-none")
            ? "jwt-alg-none"
            : on("exp-token-jwt-unverified")
              ? "jwt-unverified"
              : on("exp-token-counter")
                ? "counted"
                : on("exp-token-escaped-counter")
                  ? "escaped-counted"
                  : "hmac",

    refusesEveryExport: on("exp-refuses-every-export"),
    checksToken: !on("exp-token-not-checked"),
    checksTokenShape: !on("exp-token-shape-unchecked"),
    checksTokenTail: !on("exp-token-tail-unchecked"),
    fetchesContacts: !on("exp-contacts-not-fetched"),
    importStores: on("exp-import-stores-nothing") ? "nothing" : on("exp-duplicate-on-repeat") ? "append" : "replace",
    serialisesImports: !on("exp-import-not-serialised"),
    importComparesEachHeld: on("exp-import-compares-each-held"),
    outageReply: on("exp-outage-no-error-body") ? "bare-status" : on("exp-outage-303") ? "see-other" : "error-body",
    outageDropsCopy: on("exp-outage-drops-copy"),
    requiresBody: on("exp-body-required"),
    exportStatus: on("exp-302-not-303") ? 302 : 303,
    exportLocation: on("exp-wrong-location") ? "contacts-list" : "result",
    storesUpload: !on("exp-upload-ignored"),
  };
}
