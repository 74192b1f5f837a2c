import { toSafeHref } from '../lib/safe-url';
import { visibleText } from '../lib/visible-text';

/**
 * A URL from an event: a link when it is plain http(s), text otherwise. Opens in a new tab
 * without handing over `window.opener` or the dashboard URL as referrer.
 */
export function ExternalLink({ url }: { url: string }) {
  const href = toSafeHref(url);
  if (!href) return <span className="mono break">{visibleText(url)}</span>;
  return (
    <a className="mono break" href={href} target="_blank" rel="noopener noreferrer nofollow">
      {visibleText(url)}
    </a>
  );
}
