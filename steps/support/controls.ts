/**
 * Every case where a refusal is judged beside a control: the same request without the flaw,
 * which must get in, in the same scenario. On a server that keeps state, the control can use
 * up what the flawed request needs (a single-use token, a one-time nonce, a nonce count, a
 * Last-Modified), and the flawed request is then refused for the wrong reason. So each case
 * says what its control spends and how the flawed request gets state as fresh as the control
 * had; a test holds this list to the features, both ways.
 */

export interface ControlledCase {
  rows: readonly string[];
  /** The step that sends the request without the flaw, as the features write it. */
  control: RegExp;
  /** The step that sends the flawed request. */
  flawed: RegExp;
  /** What the control uses up on a server that keeps state. */
  spends: string;
  /** How the flawed request gets state as fresh as the control had. */
  freshState: string;
  /** Where the server cannot give fresh state: the case is not run, with this reason. */
  notRunWhen?: string;
}

const NEW_CHALLENGE =
  "each flawed request answers a challenge of its own, fetched after the control: a nonce nobody used, " +
  "sent with nc 1 as the control sent it; where the server hands out a nonce again, nc past every count used on it";

export const CONTROLLED_CASES: readonly ControlledCase[] = [
  {
    rows: ["DIG-6", "DIG-12"],
    control: /^the client was granted access with each algorithm offered$/,
    flawed:
      /^the client answers a new challenge with (.+ but otherwise the same credentials|each of these mutants of the accepted credentials:)$/,
    spends: "a nonce per algorithm (one-time or limited-use nonces) and its nonce count",
    freshState: `${NEW_CHALLENGE}; a mutant takes the challenge the refusal of the mutant before carried, where no request of the scenario answered its nonce`,
  },
  {
    rows: ["DIG-8"],
    control: /^the client was granted access with qop auth-int for the body ".*", with each algorithm offered$/,
    flawed: /^the client answers a new challenge with the same credentials and digest but sends the body ".*"$/,
    spends: "a nonce per algorithm (one-time or limited-use nonces) and its nonce count",
    freshState: NEW_CHALLENGE,
  },
  {
    rows: ["EXP-6"],
    control: /^the same POST with the export link as served exports$/,
    flawed:
      /^the client sends POST with no body to the export link with .+$|^the client POSTs tokens forged from a fresh export link: .+$/,
    spends: "the link's token (single-use tokens), or the user's one export",
    freshState:
      "the flawed POST is built on a link read from the list after the control; right after it is refused, " +
      "the same POST without the flaw is sent and must export, so the link was good when the flaw was refused; " +
      "each further forgery is made from a link read after that POST, which is its control",
    notRunWhen:
      "the list serves again the link the control used, and it no longer exports; or the list read again offers no usable export link",
  },
  {
    rows: ["SNAP-12"],
    control: /^the same update without the defect gets in$/,
    flawed: /^the client PUTs ".+" with Content-Type ".+" and ".+"$/,
    spends: "the resource's Last-Modified, which the control's update moves on",
    freshState:
      "the flawed update goes first, on the validators last read; the control follows it after a new read, " +
      "so it spends nothing the flawed update needed",
  },
  {
    rows: ["SNAP-14"],
    control: /^the same update without a document type got in$/,
    flawed: /^the client PUTs the next version declaring .+, its title a reference to it$/,
    spends: "the resource's Last-Modified, which the control's update moves on",
    freshState:
      "the plain update goes first; the one with the document type is sent after a new read, on its validators " +
      "(read again and retried on 412 as the plain update was)",
  },
  {
    rows: ["SNAP-11"],
    control: /^the same update with the Last-Modified read now gets in$/,
    flawed: /^the client PUTs the next version with If-Unmodified-Since set to the Last-Modified last read$/,
    spends: "the resource's Last-Modified, which the control's update moves on",
    freshState:
      "the stale update goes first; the control follows it after a new read, so the only difference is the " +
      "Last-Modified the stale update carries",
  },
  {
    rows: ["SNAP-15"],
    control: /^where no update got in, the same update with the Last-Modified read now gets in$/,
    flawed: /^\d+ clients PUT a version each, .+, with the Last-Modified of .+ as If-Unmodified-Since$/,
    spends: "the resource's Last-Modified, which the control's update moves on",
    freshState:
      "the racing updates go first; the control is sent only where none of them got in (one that did is the " +
      "control itself: the others differ from it only in coming later), after a new read",
  },
];
