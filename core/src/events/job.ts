import { z } from 'zod';
import { errorEventSchema, type ErrorEvent } from './error-event.schema';

/**
 * A queued unit of work. Versioned (`v`) so that a rolling deploy can drain jobs written by
 * the previous version: bump `v` when the shape changes and keep reading the old one.
 */
export interface ErrorJob {
  v: 1;
  kind: 'error';
  projectId: string;
  /** ISO time the edge accepted it. */
  receivedAt: string;
  event: ErrorEvent & { eventId: string };
}

export type Job = ErrorJob;

const jobSchema = z.object({
  v: z.literal(1),
  kind: z.literal('error'),
  projectId: z.string().uuid(),
  receivedAt: z.string().datetime({ offset: true }),
  event: errorEventSchema.extend({ eventId: z.string().uuid() }),
});

export function encodeJob(job: Job): string {
  return JSON.stringify(job);
}

/** Throws on a payload this version cannot read; the worker dead-letters it. */
export function decodeJob(payload: string): Job {
  return jobSchema.parse(JSON.parse(payload)) as Job;
}
