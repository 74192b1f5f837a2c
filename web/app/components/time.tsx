import { formatDateTime } from '../lib/format';
import { formatRelativeTime } from '../lib/relative-time';

/** A relative time ("5 minutes ago") with the exact UTC time as its tooltip and machine value. */
export function RelativeTime({ iso, now }: { iso: string; now: string }) {
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatRelativeTime(iso, now)}
    </time>
  );
}
