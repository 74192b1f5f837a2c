import { z } from 'zod';
import { cutText } from './normalize';
import { opt, wireFields } from './wire-fields';

export const VITAL_NAMES = ['LCP', 'INP', 'CLS', 'FCP', 'TTFB'] as const;
export type VitalName = (typeof VITAL_NAMES)[number];

const metric = z.number().nonnegative('must be a number ≥ 0');

/** A page address cut at the query and fragment. */
function pageUrl() {
  return z
    .string()
    .min(1, 'must not be empty')
    .transform((u) => cutText(u.split(/[?#]/)[0], 2048))
    .pipe(z.string().min(1, 'must have a page address before any ? or #'));
}

/**
 * `POST /ingest/vitals` body (docs/wire.md): one report per page view, milliseconds except CLS.
 * The URL is stored without query and hash even when a client sends them: those carry
 * tokens and personal data, and would split one page into thousands.
 */
export const vitalsSchema = z.object({
  id: opt(wireFields.uuid()),
  // Cut at the query and fragment (they split one page into many and may carry tokens), then
  // checked: a URL that is only a query or a fragment is refused here, not stored empty (which
  // the worker's own check then refused: a 202 lost to a dead letter, found by the fuzzer).
  url: pageUrl(),
  metrics: z
    .object({ LCP: opt(metric), INP: opt(metric), CLS: opt(metric), FCP: opt(metric), TTFB: opt(metric) })
    .refine((m) => VITAL_NAMES.some((n) => m[n] !== undefined), `must contain one of ${VITAL_NAMES.join(', ')}`),
  environment: opt(wireFields.environment()).transform((v) => v ?? 'production'),
  release: opt(wireFields.release()),
  tags: opt(wireFields.tags()),
});

export type VitalsBody = z.output<typeof vitalsSchema>;

/**
 * A queued report: `/ingest/vitals`' body, or a piece of one page load from Sentry's tracing
 * (`merge`, decision 046): the worker merges pieces of one id into one report instead of keeping
 * the first. A piece without the page load (LCP, CLS or INP sent after it) has no `url` until
 * the page load's piece arrives; such a report is not shown until then.
 */
export const queuedVitalsSchema = vitalsSchema.extend({
  url: opt(pageUrl()),
  merge: opt(z.literal(true)),
});

/** What `queuedVitalsSchema` returns; `/ingest/vitals`' body is one (with a `url`). */
export type QueuedVitals = Omit<VitalsBody, 'url'> & { url?: string; merge?: true };
