/**
 * Real digest clients under the client contract of `sxd test-client` (SXD_TASK, SXD_URL,
 * SXD_USERNAME, SXD_PASSWORD, SXD_BODY; exit 127 for a task they do not do), shared by the
 * tests that run them: `sxd test-client` grading each, and `sxd interop` pairing them with
 * servers. Each adapter is a script in test/fixtures/interop/clients/, so a matrix file names
 * the same one (`"run": "./clients/curl.sh"`). A client the machine lacks is skipped by
 * the test, with the reason `missingClient` gives.
 *
 *   const why = missingClient(REAL_CLIENTS.wget);
 *   if (why) return t.skip(why);
 *   await sxd(["test-client", "--run", REAL_CLIENTS.wget.command]);
 */
import { execFileSync } from "node:child_process";

export interface RealClient {
  /** The script under the client contract, as the fixtures' matrix file names it (relative to its folder). */
  script: string;
  /** The shell command that runs the script from anywhere (a Python script with PYTHON). */
  command: string;
  /** A command that succeeds only where the tool the client needs is installed. */
  probe: readonly string[];
}

const CLIENTS_FOLDER = new URL("../fixtures/interop/", import.meta.url).pathname;

/**
 * The Python interpreter `python3` starts, found once: a version manager's shim (pyenv's, on
 * the machines these tests run on) runs a dozen shell scripts before Python at every start, a
 * quarter of a second of CPU, and the tests start Python a few hundred times. "python3" where
 * there is none: the probes then fail and say so.
 */
export const PYTHON = (() => {
  try {
    return execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();
  } catch {
    return "python3";
  }
})();

function client(script: string, probe: readonly string[]): RealClient {
  const path = `'${CLIENTS_FOLDER}${script}'`;
  return { script: `./${script}`, command: script.endsWith(".py") ? `'${PYTHON}' ${path}` : path, probe };
}

export const REAL_CLIENTS = {
  /** curl --digest. */
  curl: client("clients/curl.sh", ["curl", "--version"]),
  /** GNU wget with --user and --password. */
  wget: client("clients/wget.sh", ["wget", "--version"]),
  /** Python requests' HTTPDigestAuth. */
  requests: client("clients/python-requests.py", [PYTHON, "-c", "import requests"]),
  /** Python's urllib.request with HTTPDigestAuthHandler. */
  urllib: client("clients/python-urllib.py", [PYTHON, "--version"]),
  /** A client of the tests' own that counts from nc=00000000 and answers MD5 to any challenge. */
  "nc-zero": client("clients/nc-zero.py", [PYTHON, "--version"]),
} satisfies Record<string, RealClient>;

export type RealClientName = keyof typeof REAL_CLIENTS;

/** Why the client cannot be tried here, or undefined when it can. */
export function missingClient(client: RealClient): string | undefined {
  try {
    execFileSync(client.probe[0] ?? "", client.probe.slice(1), { stdio: "ignore" });
    return undefined;
  } catch {
    return `${client.probe.join(" ")} failed: the client is not installed here`;
  }
}

/** The real clients installed here, by name. */
export function installedClients(): RealClientName[] {
  return (Object.keys(REAL_CLIENTS) as RealClientName[]).filter((name) => !missingClient(REAL_CLIENTS[name]));
}
