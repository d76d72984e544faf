/** An expected failure of a command (usage, bad description, unreachable target): one line, exit 2. */
export class UsageError extends Error {}

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
