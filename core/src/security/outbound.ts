/**
 * The outbound-target rules (docs/alerts.md, `TRACKER_ALLOW_PRIVATE_TARGETS`), shared by the api (checking a URL when an alert rule
 * is saved) and the worker (checking it again, resolved, at every delivery: ingest/src/alerts/guard.ts).
 */
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError } from '../errors';

const MAX_URL_LENGTH = 2048;
export const PRIVATE_HINT =
  'this Tracker instance only sends alerts to public addresses (its operator can allow private ones with TRACKER_ALLOW_PRIVATE_TARGETS=1)';

const RANGE_WORDS: Record<string, string> = {
  loopback: 'this machine',
  private: 'a private network',
  linkLocal: 'link-local, e.g. a cloud metadata service',
  uniqueLocal: 'a private network',
  carrierGradeNat: 'a carrier-grade NAT range',
  unspecified: 'no particular host',
  multicast: 'multicast',
  broadcast: 'broadcast',
  reserved: 'a reserved range',
};

/** ipaddr.js's range name (`carrierGradeNat`, `ipv4Mapped:loopback`…) in words. */
export function describeAddressRange(range: string): string {
  const inner = range.includes(':') ? range.slice(range.lastIndexOf(':') + 1) : range;
  return RANGE_WORDS[inner] ?? 'not publicly routable';
}

/** IPv6 addresses reachable on the public internet: global unicast, 2000::/3. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
/** The well-known NAT64 prefix (RFC 6052): the last 32 bits are an IPv4 address. */
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

export interface AddressClass {
  /** `true` when an outbound alert may go there without `allowPrivateTargets`. */
  public: boolean;
  /** ipaddr.js's range name (`loopback`, `private`, `linkLocal`, `uniqueLocal`, `carrierGradeNat`, …);
   *  for an IPv6 form of an IPv4 address, `<form>:<ipv4 range>` (e.g. `ipv4Mapped:loopback`). */
  range: string;
}

function embeddedIPv4(v6: ipaddr.IPv6, high: number, low: number): ipaddr.IPv4 {
  const p = v6.parts;
  return new ipaddr.IPv4([p[high] >> 8, p[high] & 0xff, p[low] >> 8, p[low] & 0xff]);
}

function classifyV4(v4: ipaddr.IPv4): AddressClass {
  const range = v4.range();
  // Only plain unicast is public: private, loopback, linkLocal (169.254/16, cloud metadata),
  // carrierGradeNat (100.64/10), unspecified (0/8), multicast, broadcast, reserved, benchmarking… are not.
  return { public: range === 'unicast', range };
}

/**
 * Classifies one IP address (IPv4 or IPv6, no brackets). IPv6 forms that carry an IPv4 address
 * (IPv4-mapped `::ffff:a.b.c.d`, RFC 6145 `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`, 6to4
 * `2002:AABB:CCDD::`) are judged by the IPv4 address inside. Other IPv6 is public only when
 * it is global unicast (2000::/3) and not in a special range (Teredo, documentation, ORCHID…),
 * which also refuses the deprecated IPv4-compatible `::a.b.c.d` forms. Unparseable: not public.
 */
export function classifyAddress(address: string): AddressClass {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, ''));
  } catch {
    return { public: false, range: 'invalid' };
  }
  if (parsed.kind() === 'ipv4') return classifyV4(parsed as ipaddr.IPv4);
  const v6 = parsed as ipaddr.IPv6;
  const range = v6.range();
  let inner: ipaddr.IPv4 | undefined;
  if (range === 'ipv4Mapped' || range === 'rfc6145') inner = embeddedIPv4(v6, 6, 7);
  else if (range === 'rfc6052' && v6.match(NAT64_WELL_KNOWN)) inner = embeddedIPv4(v6, 6, 7);
  else if (range === '6to4') inner = embeddedIPv4(v6, 1, 2);
  if (inner) {
    const c = classifyV4(inner);
    return { public: c.public, range: `${range}:${c.range}` };
  }
  if (range !== 'unicast') return { public: false, range };
  // Outside 2000::/3 ipaddr.js still says "unicast" (e.g. IPv4-compatible ::a.b.c.d): not routable.
  return v6.match(GLOBAL_UNICAST_V6) ? { public: true, range } : { public: false, range: 'notGlobalUnicast' };
}

/** `localhost` and `*.localhost` always mean this machine (RFC 6761), whatever DNS says. */
export function isLocalhostName(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.+$/, '');
  return h === 'localhost' || h.endsWith('.localhost');
}

export type UrlProblem = { code: 'INVALID_CHANNEL' | 'PRIVATE_TARGET'; message: string };

/** The checks that need no DNS: syntax, scheme, credentials, literal IP addresses, localhost names. */
export function checkTargetUrl(input: string | URL, allowPrivate: boolean): { url: URL } | { problem: UrlProblem } {
  const text = String(input);
  if (text.length > MAX_URL_LENGTH) {
    return { problem: { code: 'INVALID_CHANNEL', message: `URL is longer than ${MAX_URL_LENGTH} characters` } };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return {
      problem: { code: 'INVALID_CHANNEL', message: `not a valid absolute URL: ${JSON.stringify(text.slice(0, 100))}` },
    };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return {
      problem: {
        code: 'INVALID_CHANNEL',
        message: `URL scheme must be http or https, not ${url.protocol.replace(/:$/, '')}`,
      },
    };
  }
  if (url.username !== '' || url.password !== '') {
    return { problem: { code: 'INVALID_CHANNEL', message: 'URL must not contain a user name or password' } };
  }
  if (url.hostname === '') {
    return { problem: { code: 'INVALID_CHANNEL', message: 'URL has no host' } };
  }
  if (!allowPrivate) {
    // WHATWG URL parsing already turned 0x7f.1, 2130706433, 017700000001… into 127.0.0.1.
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(host) !== 0) {
      const c = classifyAddress(host);
      if (!c.public) {
        return {
          problem: {
            code: 'PRIVATE_TARGET',
            message: `URL host ${url.hostname} is not a public address (${describeAddressRange(c.range)}); ${PRIVATE_HINT}`,
          },
        };
      }
    } else if (isLocalhostName(host)) {
      return { problem: { code: 'PRIVATE_TARGET', message: `URL host ${host} is this machine; ${PRIVATE_HINT}` } };
    }
  }
  return { url };
}

/**
 * Validates a webhook or Slack URL when a rule is created or edited: absolute http(s) URL,
 * no credentials, and (unless `allowPrivate`) not a literal private/loopback/link-local/…
 * address nor `localhost`. Host names are checked again, resolved, at every delivery.
 * Returns the parsed URL; throws `AppError('BAD_USER_INPUT')` with a message for the user.
 */
export function assertPublicUrl(url: string | URL, allowPrivate: boolean): URL {
  const checked = checkTargetUrl(url, allowPrivate);
  if ('problem' in checked) throw new AppError('BAD_USER_INPUT', `Invalid alert target: ${checked.problem.message}`);
  return checked.url;
}
