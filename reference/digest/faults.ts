/**
 * Faulty modes of the digest protection, each a mistake real servers make. The rows are
 * those a conformance run against the reference (nonce policy stated) must report failed.
 */
import type { FaultInfo } from "../context.ts";

export const digestFaults = {
  "dig-challenge-403": {
    breaks: ["DIG-1"],
    description: "answers a request without credentials with 403 instead of 401 (challenge and body still sent)",
  },
  "dig-no-error-body": {
    breaks: ["DIG-2"],
    description: "sends the 401 challenge with an empty body",
  },
  "dig-repeated-nonce": {
    breaks: ["DIG-3"],
    description: "answers a wrong digest with a challenge that repeats the nonce the client sent, not a new one",
  },
  "dig-plain-text-resource": {
    breaks: ["DIG-4"],
    description: "grants access but serves the protected resource as text/plain, not application/xml",
  },
  "dig-no-authentication-info": {
    breaks: ["DIG-5", "DIG-11"],
    description: "grants access without an Authentication-Info header",
  },
  "dig-any-secret": {
    breaks: ["DIG-6", "DIG-8"],
    description: "never compares the response digest: any secret (and any body) gets in",
  },
  "dig-unknown-user-allowed": {
    breaks: ["DIG-6"],
    description: "lets in a user name it does not know, whatever the digest",
  },
  "dig-offers-basic": {
    breaks: ["DIG-7"],
    description: "offers a Basic challenge beside Digest, inviting the secret in clear text",
  },
  "dig-auth-int-unchecked": {
    breaks: ["DIG-8"],
    description: "accepts qop=auth-int without checking the digest, so a changed body gets through",
  },
  "dig-replay-allowed": {
    breaks: ["DIG-9", "DIG-10"],
    description: "keeps no log of used nonces: a replayed Authorization gets in again",
  },
  "dig-no-stale": {
    breaks: ["DIG-10"],
    description: "refuses a used-up nonce without stale=true, so the client must ask the user again",
  },
  "dig-wrong-rspauth": {
    breaks: ["DIG-11"],
    description: "computes rspauth with the request method in A2, like the request digest",
  },
  "dig-no-uri-check": {
    breaks: ["DIG-12"],
    description: "does not check that the uri directive names the request target",
  },
  "dig-unknown-qop-crash": {
    breaks: ["DIG-12"],
    description: "fails with 500 on a qop it does not know",
  },
} satisfies Record<string, FaultInfo>;
