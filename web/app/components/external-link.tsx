import { toSafeHref } from '../lib/safe-url';
import { UrlText } from './url-text';

/**
 * A URL from an event: a link when it is plain http(s), text otherwise. Opens in a new tab
 * without handing over `window.opener` or the dashboard URL as referrer.
 */
export function ExternalLink({ url }: { url: string }) {
  const href = toSafeHref(url);
  if (!href)
    return (
      <span className="mono break url-text">
        <UrlText url={url} />
      </span>
    );
  return (
    <a className="mono break url-text" href={href} target="_blank" rel="noopener noreferrer nofollow">
      <UrlText url={url} />
    </a>
  );
}
