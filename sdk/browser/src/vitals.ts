import { onCLS, onFCP, onINP, onLCP, onTTFB, type Metric } from 'web-vitals';
import { sendVitals } from '@tracker/sdk-core';

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
  // reportAllChanges keeps the latest value at hand; web-vitals registers its own hidden
  // listeners first (capture phase), so ours below sees the values it finalizes on hide.
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
  addEventListener('visibilitychange', () => {
    if (document.visibilityState == 'hidden') send();
  });
  addEventListener('pagehide', send);
}
