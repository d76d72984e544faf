/**
 * Nonces and tokens sampled for DIG-13 and EXP-10 in the tests' runs: a third of the default,
 * above the sequencer's least (20 values; lib/sequencer.ts), and enough for its bit tests. The
 * fault runs judge the same counters with it; `sxd test`'s own default is tested where the
 * command runs whole.
 */
export const TEST_SECURITY_SAMPLES = 32;
