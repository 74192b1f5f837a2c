import { z } from 'zod';
import { SLUG_PATTERN } from './monitor-input';

/** A check-in's longest duration: a job running more than a day is not a check-in's business. */
export const MAX_CHECK_IN_DURATION_MS = 24 * 60 * 60 * 1000;
export const CHECK_IN_STATUSES = ['in_progress', 'ok', 'error'] as const;
export type CheckInStatus = (typeof CHECK_IN_STATUSES)[number];

/**
 * A monitor's schedule and rules as an SDK declares them (Sentry's `monitor_config`, or
 * `@tracker/node`'s `withMonitor` config), already in our units: an upsert of the monitor.
 */
export const monitorConfigSchema = z.object({
  crontab: z.string().min(1).max(128).optional(),
  intervalMinutes: z.number().int().min(1).optional(),
  timezone: z.string().min(1).max(64).optional(),
  checkinMarginMinutes: z.number().int().optional(),
  maxRuntimeMinutes: z.number().int().optional(),
  failureTolerance: z.number().int().optional(),
  recoveryThreshold: z.number().int().optional(),
});
export type MonitorConfig = z.infer<typeof monitorConfigSchema>;

/** One check-in as queued by the edge: the id is the edge's (or the client's, to close an in_progress). */
export const checkInBodySchema = z.object({
  id: z.string().uuid(),
  slug: z.string().regex(SLUG_PATTERN),
  status: z.enum(CHECK_IN_STATUSES),
  durationMs: z.number().int().min(0).max(MAX_CHECK_IN_DURATION_MS).optional(),
  environment: z.string().min(1).max(64),
  config: monitorConfigSchema.optional(),
});
export type CheckInBody = z.infer<typeof checkInBodySchema>;
