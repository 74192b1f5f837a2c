import { CLIENT_ADDRESS_HEADER, verifyClientAddress } from '@tracker/core';
import type { FastifyRequest } from 'fastify';

/**
 * The address a request is rate-limited by when it is signed out: the browser's, when the web
 * role vouched for it with a valid X-Tracker-Client-Address (core/src/security/client-address.ts),
 * else the connection's (`request.ip`). The web role calls from its own address for every
 * visitor, so without the header one client's wrong passwords spent every visitor's budget
 * (issue 28). A header that does not verify (forged, another secret, stale) is ignored: the
 * sender is then limited by its own address like any client, and a warning says so, once a
 * minute, because it is either an attack or web and api configured with different secrets.
 */
export function createClientAddressReader(
  secret: string | undefined,
  now: () => number = Date.now,
): (request: FastifyRequest) => string {
  let lastWarning = 0;
  return (request) => {
    const raw = request.headers[CLIENT_ADDRESS_HEADER];
    if (raw === undefined) return request.ip;
    const value = Array.isArray(raw) ? undefined : raw;
    // Signature freshness is a transport matter: the wall clock, as the web role signs with it.
    const address = secret && value ? verifyClientAddress(secret, value, now()) : null;
    if (address) return address;
    const t = now();
    if (t - lastWarning >= 60_000) {
      lastWarning = t;
      request.log.warn(
        { ip: request.ip },
        secret
          ? `${CLIENT_ADDRESS_HEADER} did not verify and was ignored: forged, stale, or the web role has another TRACKER_SESSION_SECRET`
          : `${CLIENT_ADDRESS_HEADER} was ignored: this api process has no TRACKER_SESSION_SECRET to check it with`,
      );
    }
    return request.ip;
  };
}
