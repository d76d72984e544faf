/**
 * HTTP dates (RFC 9110 §5.6.7). A recipient accepts all three formats; a sender writes
 * only IMF-fixdate. Anything else is not a date, and callers treat it as absent.
 */
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const IMF_FIXDATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) ([A-Z][a-z]{2}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const RFC850 =
  /^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\d{2})-([A-Z][a-z]{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const ASCTIME = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ([A-Z][a-z]{2}) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/;

export function parseHttpDate(value: string | undefined, now = new Date()): Date | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  let m = IMF_FIXDATE.exec(text);
  if (m) return build(m[3], m[2], m[1], m[4], m[5], m[6]);
  m = RFC850.exec(text);
  if (m) return build(String(twoDigitYear(Number(m[3]), now)), m[2], m[1], m[4], m[5], m[6]);
  m = ASCTIME.exec(text);
  if (m) return build(m[6], m[1], m[2].trim(), m[3], m[4], m[5]);
  return undefined;
}

/** RFC 9110: a two-digit year more than 50 years in the future means the past century. */
function twoDigitYear(yy: number, now: Date): number {
  const year = now.getUTCFullYear();
  let full = Math.floor(year / 100) * 100 + yy;
  if (full > year + 50) full -= 100;
  return full;
}

function build(year: string, month: string, day: string, h: string, mi: string, s: string): Date | undefined {
  const monthIndex = MONTHS.indexOf(month);
  if (monthIndex < 0) return undefined;
  const ms = Date.UTC(Number(year), monthIndex, Number(day), Number(h), Number(mi), Number(s));
  const date = new Date(ms);
  // Date.UTC rolls 31 Feb into March; a real HTTP date never does.
  if (date.getUTCDate() !== Number(day) || Number(h) > 23 || Number(mi) > 59 || Number(s) > 60) return undefined;
  return date;
}

export function formatHttpDate(date: Date): string {
  return date.toUTCString();
}

/** HTTP dates carry whole seconds. */
export function toWholeSeconds(ms: number): number {
  return Math.floor(ms / 1000) * 1000;
}

/** Retry-After as milliseconds from `now`: delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = parseHttpDate(text);
  return date === undefined ? undefined : Math.max(0, date.getTime() - now);
}
