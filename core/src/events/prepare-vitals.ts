import type { VitalsJob } from './job';

/** A Web Vitals report ready to persist: one nullable column per metric. */
export interface PreparedVitals {
  projectId: string;
  id: string;
  url: string;
  lcp: number | null;
  inp: number | null;
  cls: number | null;
  fcp: number | null;
  ttfb: number | null;
  environment: string;
  release: string | null;
  tags: Record<string, string>;
  receivedAt: Date;
}

export function prepareVitals(job: VitalsJob): PreparedVitals {
  const v = job.vitals;
  return {
    projectId: job.projectId,
    id: v.id,
    url: v.url,
    lcp: v.metrics.LCP ?? null,
    inp: v.metrics.INP ?? null,
    cls: v.metrics.CLS ?? null,
    fcp: v.metrics.FCP ?? null,
    ttfb: v.metrics.TTFB ?? null,
    environment: v.environment,
    release: v.release ?? null,
    tags: v.tags ?? {},
    receivedAt: new Date(job.receivedAt),
  };
}
