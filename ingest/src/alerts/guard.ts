import dns from 'node:dns';
import type net from 'node:net';
import { checkTargetUrl, classifyAddress, describeAddressRange, PRIVATE_HINT } from '@tracker/core';
import { DeliveryError } from './errors';
import type { HostResolver } from './types';

export { assertPublicUrl, checkTargetUrl, classifyAddress } from '@tracker/core';
export type { AddressClass } from '@tracker/core';

/** Like `assertPublicUrl`, as the `DeliveryError` a delivery attempt throws (never retryable). */
export function targetUrlOrThrow(url: string, allowPrivate: boolean): URL {
  const checked = checkTargetUrl(url, allowPrivate);
  if ('problem' in checked) throw new DeliveryError({ ...checked.problem, retryable: false });
  return checked.url;
}

export const systemResolver: HostResolver = (hostname, family) =>
  dns.promises.lookup(hostname, { all: true, family, verbatim: true });

/**
 * A `lookup` for `http.request`/`net.connect` that resolves with `resolve` and, unless
 * `allowPrivate`, refuses the connection when ANY resolved address is not public. This runs
 * when the socket connects, so the address checked is the address used: a name that resolved
 * to a public address at rule creation and to 127.0.0.1 now (DNS rebinding) is refused.
 * (Node skips `lookup` for literal IPs; `checkTargetUrl` covers those before connecting.)
 */
export function createGuardedLookup(allowPrivate: boolean, resolve: HostResolver = systemResolver): net.LookupFunction {
  return (hostname, options, callback) => {
    const family =
      options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
    resolve(hostname, family).then(
      (addresses) => {
        if (addresses.length === 0) {
          const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
          err.code = 'ENOTFOUND';
          callback(err, '');
          return;
        }
        if (!allowPrivate) {
          for (const a of addresses) {
            const c = classifyAddress(a.address);
            if (!c.public) {
              callback(
                new DeliveryError({
                  code: 'PRIVATE_TARGET',
                  retryable: false,
                  message: `${hostname} resolves to ${a.address}, not a public address (${describeAddressRange(c.range)}); ${PRIVATE_HINT}`,
                }),
                '',
              );
              return;
            }
          }
        }
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };
}
