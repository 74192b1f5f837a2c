import { createHmac, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/**
 * The header the web role sets on each call it makes to the API for a browser: that browser's
 * address, signed with the secret web and api share (TRACKER_SESSION_SECRET). The API rate-limits
 * a signed-out request by this address instead of the web process's own, so one client's flood
 * of sign-ins does not spend everyone's budget (issue 28).
 */
export const CLIENT_ADDRESS_HEADER = 'x-tracker-client-address';

/**
 * The browser's User-Agent, forwarded by the web role beside CLIENT_ADDRESS_HEADER for the audit
 * log; the API believes it only on a request whose client address verifies.
 */
export const CLIENT_USER_AGENT_HEADER = 'x-tracker-client-user-agent';

/**
 * How far a signature's time may be from the API's clock. The web role signs just before it
 * calls, so this only covers clock skew between hosts, and bounds how long a header seen on the
 * internal network could be replayed.
 */
export const CLIENT_ADDRESS_MAX_SKEW_MS = 60_000;

// A key of its own, derived from the session secret: a header's signature can never be mistaken
// for a cookie's, or the other way round, though one secret is configured.
const keys = new Map<string, Buffer>();
function keyOf(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = createHmac('sha256', secret).update('tracker client address v1').digest();
    if (keys.size > 8) keys.clear();
    keys.set(secret, key);
  }
  return key;
}

function macOf(secret: string, address: string, seconds: number): Buffer {
  return createHmac('sha256', keyOf(secret)).update(`${address};${seconds}`).digest();
}

/** `<address>;<unix seconds>;<base64url HMAC-SHA256>`: the value of CLIENT_ADDRESS_HEADER. */
export function signClientAddress(secret: string, address: string, now: number): string {
  const seconds = Math.floor(now / 1000);
  return `${address};${seconds};${macOf(secret, address, seconds).toString('base64url')}`;
}

/**
 * The address a CLIENT_ADDRESS_HEADER value vouches for, or null when it is malformed, not an
 * IP address, signed with another secret, or too far from `now`. Compares in constant time.
 */
export function verifyClientAddress(secret: string, value: string, now: number): string | null {
  if (value.length > 200) return null;
  const parts = value.split(';');
  if (parts.length !== 3) return null;
  const [address, secondsText, signature] = parts;
  if (isIP(address) === 0 || !/^\d{1,12}$/.test(secondsText)) return null;
  const seconds = Number(secondsText);
  if (Math.abs(now - seconds * 1000) > CLIENT_ADDRESS_MAX_SKEW_MS) return null;
  const given = Buffer.from(signature, 'base64url');
  const expected = macOf(secret, address, seconds);
  return given.length === expected.length && timingSafeEqual(given, expected) ? address : null;
}
