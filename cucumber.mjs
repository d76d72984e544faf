// Used when cucumber-js is run by hand (`npx cucumber-js --world-parameters '{...}'`);
// `sxd test` builds the same configuration through cucumber's API.
import { register } from "tsx/esm/api";

register();
const { SERVER_STEP_FILES } = await import("./harness/package.ts");

export default {
  paths: ["features/*/*.feature"],
  import: SERVER_STEP_FILES,
  format: ["progress"],
};
