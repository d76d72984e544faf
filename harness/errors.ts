/** An expected failure of a command (usage, bad description, unreachable target): one line, exit 2. */
export class UsageError extends Error {}
