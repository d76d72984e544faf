/**
 * A port that was free a moment ago, for a server that must be told its peer's port before
 * either starts: sxd interop's own choice, below the system's ephemeral range, so the other
 * tests' servers on listen(0) and their connections do not take it in the meantime.
 */
export { freePort } from "../../harness/interop/servers.ts";
