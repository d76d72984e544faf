/**
 * The error body the spec gives every refusal: `application/xml;charset=UTF-8`, a root
 * `error` with a non-empty `message` child, in whatever namespace the server writes it.
 */
import { type Answered, headerOf } from "../../harness/evidence/exchange.ts";
import { mediaTypeMatches } from "../../lib/media-type.ts";
import { childElement, parseXml } from "../../lib/xml.ts";
import { expectThat, fail } from "./expect.ts";

export function expectErrorBody(reply: Answered): void {
  const type = headerOf(reply, "content-type");
  expectThat(
    mediaTypeMatches(type, "application/xml;charset=UTF-8"),
    "an error body of type application/xml;charset=UTF-8",
    `Content-Type ${type ?? "(none)"}`,
    reply,
  );
  const parsed = parseXml(reply.response.body);
  if (!parsed.ok) fail("an XML error body", `a body that is not XML (${parsed.error})`, reply);
  const root = parsed.root;
  if (root.local !== "error") fail("a root element error", `a root element ${root.local}`, reply);
  const message = childElement(root, root.ns, "message");
  if (!message || message.text.trim() === "") fail("an error element with a non-empty message child", "none", reply);
}
