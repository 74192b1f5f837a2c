import { sendVitals } from '@tracker/sdk-core';

/** How long a hidden (not unloading) page waits for the entry of a slow last interaction. */
const LATE_ENTRIES_MS = 200;
/** Shorter Event Timing entries are not INP candidates (web-vitals' default threshold). */
const INP_MIN_DURATION_MS = 40;
/** INP is the worst interaction, then the next worst for every 50 more (the p98). */
const INTERACTIONS_PER_STEP = 50;
/** CLS session windows (the metric's definition): a gap under 1 s, a window under 5 s. */
const SHIFT_GAP_MS = 1_000;
const SHIFT_WINDOW_MS = 5_000;

type Timing = PerformanceEntry & { value: number; hadRecentInput: boolean; interactionId: number };

let started = false;
let wanted = true;

/**
 * One report per hard page load, sent in one request when the page is first hidden: the last
 * moment the final LCP, CLS and INP are known and the page may never run again (keepalive
 * carries the request past unload). Single-page route changes are not new page views, so the
 * URL is taken once, without query or hash (they carry ids and tokens, and split pages).
 *
 * The metrics are read from the browser's performance entries here rather than through
 * `web-vitals` (decision 016): it was 3.4 KB of the 6.3 KB bundle, and its INP waits for an
 * idle callback or its own `visibilitychange` listener, so a report made on hide had to be
 * ordered behind it. Here every observer is drained with `takeRecords()` at the moment of
 * sending. Definitions follow web-vitals: values relative to a prerender's activation;
 * FCP and LCP only while the page was never hidden; CLS as the largest session window;
 * INP as the p98 interaction (the longest below 50 interactions).
 */
export function startVitals(enabled: boolean, sampleRate: number): void {
  wanted = enabled;
  // Sampled once per page view; a later init can switch reporting off but not re-draw.
  if (started || !enabled || !(Math.random() < sampleRate)) return;
  started = true;
  const url = location.origin + location.pathname;
  const doc = document as Document & { prerendering?: boolean };
  const perf = performance as Performance & { interactionCount?: number };
  const isHidden = () => doc.visibilityState == 'hidden';
  // A prerendered page is hidden until it is shown, which does not count as hidden.
  let hiddenAt = isHidden() && !doc.prerendering ? 0 : Infinity;
  for (const entry of perf.getEntriesByType('visibility-state')) {
    if (entry.name == 'hidden') hiddenAt = Math.min(hiddenAt, entry.startTime);
  }

  let fcp: number | undefined;
  let lcp: number | undefined;
  let cls = 0;
  let session = 0;
  let sessionStart = 0;
  let lastShift = 0;
  // Longest Event Timing duration per interaction.
  const interactions: Record<number, number> = {};
  // An interaction Event Timing has not reported yet: its start, and how long its handlers ran.
  let pendingStart = Infinity;
  let pendingMs = 0;
  const drains: (() => void)[] = [];

  const observe = (type: string, each: (entry: Timing) => void, durationThreshold?: number) => {
    if (!PerformanceObserver.supportedEntryTypes.includes(type)) return false;
    const take = (entries: PerformanceEntryList) => entries.forEach(each as (entry: PerformanceEntry) => void);
    const observer = new PerformanceObserver((list) => take(list.getEntries()));
    observer.observe({ type, buffered: true, durationThreshold } as PerformanceObserverInit);
    drains.push(() => take(observer.takeRecords()));
    return true;
  };

  observe('paint', (e) => {
    if (e.name == 'first-contentful-paint' && e.startTime < hiddenAt) fcp = e.startTime;
  });
  // The browser itself stops LCP entries at the first input.
  observe('largest-contentful-paint', (e) => {
    if (e.startTime < hiddenAt) lcp = e.startTime;
  });
  const hasCLS = observe('layout-shift', (e) => {
    if (e.hadRecentInput) return;
    if (session && e.startTime - lastShift < SHIFT_GAP_MS && e.startTime - sessionStart < SHIFT_WINDOW_MS) {
      session += e.value;
    } else {
      session = e.value;
      sessionStart = e.startTime;
    }
    lastShift = e.startTime;
    if (session > cls) cls = session;
  });
  const onEvent = (e: Timing) => {
    if (!e.interactionId) return;
    interactions[e.interactionId] = Math.max(interactions[e.interactionId] || 0, e.duration);
    // Only an entry as long as the handlers ran settles the pending interaction: the short
    // entry of its pointerdown can arrive after a slow click of the same tap, whose own entry
    // an unload may then never deliver (durations are rounded to 8 ms).
    if (e.startTime >= pendingStart - 1 && e.duration + 8 >= pendingMs) pendingStart = Infinity;
  };
  // `first-input` too: it is reported whatever its duration, so a page with only quick
  // interactions still gets an INP.
  if (observe('event', onEvent, INP_MIN_DURATION_MS) && observe('first-input', onEvent)) {
    // Chromium writes an interaction's entry after the next frame. A click whose handler
    // starts a navigation can unload the page before that frame, and the interaction is
    // then never reported. Its handlers' run time, measured here as the event leaves the
    // page (bubble phase on window, after the app's own handlers), stands in for it: a
    // lower bound of what the user waited.
    for (const type of ['pointerdown', 'pointerup', 'click', 'keydown', 'keyup']) {
      addEventListener(type, (event) => {
        if (pendingStart == Infinity) {
          pendingStart = event.timeStamp;
          pendingMs = 0;
        }
        pendingMs = Math.max(pendingMs, perf.now() - event.timeStamp);
      });
    }
  }

  let sent = false;
  const send = () => {
    if (sent || !wanted || doc.prerendering) return;
    drains.forEach((drain) => drain());
    const metrics: Record<string, number> = {};
    const nav = perf.getEntriesByType('navigation')[0] as
      (PerformanceNavigationTiming & { activationStart?: number }) | undefined;
    const activation = (nav && nav.activationStart) || 0;
    const since = (time: number) => Math.max(time - activation, 0);
    if (nav && nav.responseStart > 0 && nav.responseStart < perf.now()) metrics.TTFB = since(nav.responseStart);
    if (fcp != null) {
      metrics.FCP = since(fcp);
      if (hasCLS) metrics.CLS = cls;
    }
    if (lcp != null) metrics.LCP = since(lcp);
    const latencies = Object.values(interactions);
    if (pendingStart < Infinity) latencies.push(pendingMs);
    if (latencies.length) {
      latencies.sort((a, b) => b - a);
      const count = perf.interactionCount || latencies.length;
      metrics.INP = latencies[Math.min(latencies.length - 1, Math.floor(count / INTERACTIONS_PER_STEP))];
    }
    if (!Object.keys(metrics).length) return;
    sent = true;
    void sendVitals(url, metrics);
  };

  // Leaving a page fires `pagehide`, then `visibilitychange`, in the task that unloads it:
  // the report goes on the first, with every observer drained, so nothing waits on anyone.
  addEventListener('pagehide', send);
  addEventListener('visibilitychange', (event) => {
    if (!isHidden()) return;
    hiddenAt = Math.min(hiddenAt, event.timeStamp);
    // A tab switch right after a slow interaction: the page lives on, and the interaction's
    // entry comes with the frame after it, so wait that long for it (a close meanwhile
    // reports on `pagehide`). Otherwise now: a hidden mobile page may never run again.
    if (pendingStart < Infinity && pendingMs >= INP_MIN_DURATION_MS) setTimeout(send, LATE_ENTRIES_MS);
    else send();
  });
}
