/** Faulty modes of the export servers, each breaking the EXP rows it names. */
import type { FaultInfo } from "../fault-info.ts";

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
  "exp-duplicate-on-repeat": {
    breaks: ["EXP-7"],
    description: "each export adds the contacts again instead of replacing the previous copy",
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
  "exp-upload-ignored": {
    breaks: ["EXP-9"],
    description: "the upload endpoint accepts contacts and drops them",
  },
} satisfies Record<string, FaultInfo>;
