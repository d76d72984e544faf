// Used when cucumber-js is run by hand (`npx cucumber-js --world-parameters '{...}'`);
// `sxd test` builds the same configuration through cucumber's API.
import { register } from "tsx/esm/api";

register();

export default {
  paths: ["features/**/*.feature"],
  import: ["steps/support/world.ts", "steps/support/hooks.ts", "steps/**/*.steps.ts"],
  format: ["progress"],
};
