import { onCLS, onFCP, onINP, onLCP, onTTFB, type Metric } from 'web-vitals';
import { sendVitals } from '@tracker/sdk-core';

/** How long a hidden (not unloading) page waits for the entries of a last interaction. */
const LATE_ENTRIES_MS = 200;

let started = false;
let wanted = true;

/**
 * One report per hard page load, sent in one request when the page is first hidden: the last
 * moment the final LCP, CLS and INP are known and the page may never run again (keepalive
 * carries the request past unload). Single-page route changes are not new page views, so the
 * URL is taken once, without query or hash (they carry ids and tokens, and split pages).
 */
export function startVitals(enabled: boolean, sampleRate: number): void {
  wanted = enabled;
  // Sampled once per page view; a later init can switch reporting off but not re-draw.
  if (started || !enabled || !(Math.random() < sampleRate)) return;
  started = true;
  const url = location.origin + location.pathname;
  const metrics: Record<string, number> = {};
  const record = (metric: Metric) => {
    metrics[metric.name] = metric.value;
  };
  // reportAllChanges keeps the latest value at hand.
  const options = { reportAllChanges: true };
  onLCP(record, options);
  onFCP(record, options);
  onTTFB(record, options);
  onCLS(record, options);
  onINP(record, options);
  let sent = false;
  const send = () => {
    if (sent || !wanted || !Object.keys(metrics).length) return;
    sent = true;
    void sendVitals(url, metrics);
  };
  // The report goes when the page turns hidden, in the bubble phase on window. web-vitals
  // finalises on the same event but in capture-phase listeners on window (its visibility
  // watcher, and the idle-or-hidden wait that holds a click's INP for up to a second), and
  // capture on window always runs before bubble on window, whatever the order of
  // registration. Leaving the page fires `pagehide` *before* that `visibilitychange`, so a
  // report sent on `pagehide` missed the INP of a click made just before (the old bug).
  let leaving = false;
  addEventListener('pagehide', () => {
    leaving = true;
    // A page hidden all along (a background tab) has no `visibilitychange` left to come.
    if (document.visibilityState == 'hidden') send();
  });
  addEventListener('visibilitychange', () => {
    if (document.visibilityState != 'hidden') return;
    // Unloading: no later task will run, so now. A tab switch: the page lives on, and the
    // Event Timing entry of a click whose frame was still pending arrives a moment after
    // the hide; waiting for it costs nothing (a close meanwhile reports on `pagehide`).
    if (leaving) send();
    else setTimeout(send, LATE_ENTRIES_MS);
  });
}
