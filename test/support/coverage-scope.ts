/**
 * Loaded first in every test file's process (scripts/run-tests.mjs): the processes a test
 * starts (sxd, clients, servers) collect no V8 coverage. Under `npm test`, c8 gives every
 * process below it NODE_V8_COVERAGE, and each one then runs a fifth to a third slower and
 * writes megabytes of counts; yet what .c8rc.json measures is reference/*.ts, which runs in
 * the test files' own processes. An sxd started by a test runs the compiled dist/reference/,
 * which .c8rc.json's include never matched, so its counts were read and dropped.
 *
 * The test file's process keeps its coverage: node read NODE_V8_COVERAGE when it started and
 * writes there at exit whatever its environment says by then.
 */
if (!process.execArgv.includes("--test")) delete process.env.NODE_V8_COVERAGE;
