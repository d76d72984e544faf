/** An expected failure of a command (usage, bad description, unreachable target): one line, exit 2. */
export class UsageError extends Error {}

/** A result's value, or its error as a usage error. */
export function valueOrUsageError<T>(result: { ok: true; value: T } | { ok: false; error: string }): T {
  if (!result.ok) throw new UsageError(result.error);
  return result.value;
}

/** Why a file could not be read or written, in words: "no such file", not ENOENT. */
export function fileProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const words: Record<string, string> = {
    ENOENT: "no such file",
    EACCES: "permission denied",
    EROFS: "read-only file system",
    EISDIR: "it is a directory",
    ENOTDIR: "a part of the path is not a directory",
  };
  return (code && words[code]) ?? (error as Error).message;
}
