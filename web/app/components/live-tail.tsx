import { useRevalidator } from '@remix-run/react';
import { useEffect } from 'react';

/** Often enough to feel live, rarely enough that a left-open tab costs the API little. */
export const LIVE_TAIL_INTERVAL_MS = 3_000;

/**
 * While mounted with `on`, re-runs the page's loaders every few seconds (Remix's revalidation: a
 * `.data` fetch, no full reload), skipping ticks while one is in flight or the tab is hidden.
 * Renders nothing; the toggle is a plain link so it works, and is bookmarkable, without script.
 */
export function LiveTail({ on }: { on: boolean }) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!on) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible' && revalidator.state === 'idle') revalidator.revalidate();
    }, LIVE_TAIL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [on, revalidator]);
  return null;
}
