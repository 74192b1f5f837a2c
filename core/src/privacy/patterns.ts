import { isIP } from 'node:net';
import { FILTERED } from './settings';

// What the scrubber looks for in text: card numbers (with the Luhn check) and IP addresses.

// 13 to 19 digits, each pair optionally separated by one space or dash, not inside a longer
// run of digits. The first digit is 2–6, the issuer ranges of payment cards (Mastercard 2-series,
// Amex/Diners/JCB, Visa, Mastercard, Discover/UnionPay): a millisecond timestamp (13 digits
// starting with 1 until 2033) is the commonest Luhn-valid false positive, and is left alone.
export const CARD_CANDIDATE = /(?<!\d)[2-6](?:[ -]?\d){12,18}(?!\d)/g;
// What every candidate starts with, as a cheap first test: written out, it runs 2–3× faster than
// CARD_CANDIDATE over a typical stack trace (and than `\d(?:[ -]?\d){7}`, measured on Node 20).
export const CARD_HINT = /\d[ -]?\d[ -]?\d[ -]?\d[ -]?\d[ -]?\d[ -]?\d[ -]?\d/;

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = `${OCTET}(?:\\.${OCTET}){3}`;
// Candidates only: whatever matches is confirmed with `isIP` (so `12:30:45` stays).
const IPV6 = `(?:[0-9a-f]{0,4}:){2,7}(?:${IPV4}|[0-9a-f]{0,4})(?:%[\\w.]+)?`;
export const IP_ANYWHERE = new RegExp(`(?<![\\w.:])(?:${IPV4}(?![\\w]|\\.\\d)|${IPV6}(?![\\w:]))`, 'gi');
// In a stack trace, a URL's host (`http://10.0.0.5:3000/app.js`) is where the code came from,
// which grouping and symbolication read, not whom it ran for: kept.
export const IP_NOT_URL_HOST = new RegExp(`(?<![\\w.:]|//|//\\[)(?:${IPV4}(?![\\w]|\\.\\d)|${IPV6}(?![\\w:]))`, 'gi');

/** Values nested deeper than this are replaced whole: ingest bodies are cut at 10 levels first. */
export const MAX_DEPTH = 64;

/** Whether `digits` (digits only) passes the Luhn check card numbers carry. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

export function cardOrSame(match: string): string {
  return luhnValid(match.replace(/[ -]/g, '')) ? FILTERED : match;
}

export function ipOrSame(match: string): string {
  const zone = match.indexOf('%');
  return isIP(zone === -1 ? match : match.slice(0, zone)) !== 0 ? FILTERED : match;
}

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
