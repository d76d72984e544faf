/**
 * Whether two strings are equal, in a time that depends on their length and not on where they
 * differ: for secrets compared with what a client sent (a MAC, a digest), where an early exit
 * would tell an attacker how much of a guess was right. Code units are compared, so no buffer is
 * made for it (which costs more than the comparison on a server's every request).
 *
 *   sameText(expectedMac, givenMac)
 */
export function sameText(expected: string, given: string): boolean {
  if (expected.length !== given.length) return false;
  let difference = 0;
  for (let at = 0; at < expected.length; at++) difference |= expected.charCodeAt(at) ^ given.charCodeAt(at);
  return difference === 0;
}
