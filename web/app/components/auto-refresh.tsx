import { useNavigation, useRevalidator } from '@remix-run/react';
import { useEffect, useRef } from 'react';

/** New events and issues show within this long; an open tab costs the API one page load per tick. */
export const AUTO_REFRESH_INTERVAL_MS = 5_000;

/**
 * Keeps a page's data fresh without a reload, as the logs live tail does (decision 010): every
 * few seconds it re-runs the page's loaders through Remix's revalidation (a `.data` fetch), but
 * only while the tab is visible and nothing is loading or being submitted, so it never races a
 * click. Coming back to a hidden tab refreshes at once. Renders nothing.
 */
export function AutoRefresh({ intervalMs = AUTO_REFRESH_INTERVAL_MS }: { intervalMs?: number }) {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  // The latest state, read by the timer without restarting it on every render.
  const state = useRef({ revalidator, busy: false });
  state.current = { revalidator, busy: revalidator.state !== 'idle' || navigation.state !== 'idle' };
  useEffect(() => {
    const tick = () => {
      if (document.visibilityState !== 'visible' || state.current.busy) return;
      state.current.revalidator.revalidate();
    };
    const timer = setInterval(tick, intervalMs);
    const onVisible = () => {
      if (document.visibilityState === 'visible') tick();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [intervalMs]);
  return null;
}
