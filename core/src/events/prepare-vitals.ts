import type { VitalsJob } from './job';

/** A Web Vitals report ready to persist: one nullable column per metric. */
export interface PreparedVitals {
  projectId: string;
  id: string;
  /** Null for a piece of a page load whose page-load piece has not arrived (decision 046). */
  url: string | null;
  lcp: number | null;
  inp: number | null;
  cls: number | null;
  fcp: number | null;
  ttfb: number | null;
  environment: string;
  release: string | null;
  tags: Record<string, string>;
  receivedAt: Date;
  /** Merged into a stored report of the same id rather than dropped as a repeat. */
  merge?: boolean;
}

export function prepareVitals(job: VitalsJob): PreparedVitals {
  const v = job.vitals;
  return {
    projectId: job.projectId,
    id: v.id,
    url: v.url ?? null,
    lcp: v.metrics.LCP ?? null,
    inp: v.metrics.INP ?? null,
    cls: v.metrics.CLS ?? null,
    fcp: v.metrics.FCP ?? null,
    ttfb: v.metrics.TTFB ?? null,
    environment: v.environment,
    release: v.release ?? null,
    tags: v.tags ?? {},
    receivedAt: new Date(job.receivedAt),
    merge: v.merge === true,
  };
}
