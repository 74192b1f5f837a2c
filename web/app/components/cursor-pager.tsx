import { Link } from '@remix-run/react';

/** "Newest" / "Older" links of a newest-first, cursor-paginated list (either may be absent). */
export function CursorPager({ newestPath, olderPath }: { newestPath: string | null; olderPath: string | null }) {
  return (
    <nav className="pager" aria-label="Pages">
      {newestPath && (
        <Link to={newestPath} className="button">
          Newest
        </Link>
      )}
      {olderPath && (
        <Link to={olderPath} className="button">
          Older
        </Link>
      )}
    </nav>
  );
}
