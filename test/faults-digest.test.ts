import { checkFaultsOf } from "./support/faults.ts";

checkFaultsOf("DIG");
