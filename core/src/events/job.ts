import { z } from 'zod';
import { errorEventSchema, type ErrorEvent } from './error-event.schema';
import { feedbackSchema, type FeedbackBody } from './feedback.schema';
import { logSchema, type LogBody } from './log.schema';
import { vitalsSchema, type VitalsBody } from './vitals.schema';

/**
 * A queued unit of work. Versioned (`v`) so that a rolling deploy can drain jobs written by
 * the previous version: bump `v` when the shape changes and keep reading the old one. Adding a
 * `kind` needs no bump (old jobs are still read the same), but workers must be deployed
 * before the edges that start writing it.
 */
interface JobBase {
  v: 1;
  projectId: string;
  /** ISO time the edge accepted it. */
  receivedAt: string;
}

export interface ErrorJob extends JobBase {
  kind: 'error';
  event: ErrorEvent & { eventId: string };
}

/** Logs, vitals and feedback carry an `id` assigned at the edge: redelivery stores them once. */
export interface LogJob extends JobBase {
  kind: 'log';
  log: LogBody & { id: string };
}

export interface VitalsJob extends JobBase {
  kind: 'vitals';
  vitals: VitalsBody & { id: string };
}

export interface FeedbackJob extends JobBase {
  kind: 'feedback';
  feedback: FeedbackBody & { id: string };
}

export type Job = ErrorJob | LogJob | VitalsJob | FeedbackJob;

const base = {
  v: z.literal(1),
  projectId: z.string().uuid(),
  receivedAt: z.string().datetime({ offset: true }),
};

const jobSchema = z.discriminatedUnion('kind', [
  z.object({ ...base, kind: z.literal('error'), event: errorEventSchema.extend({ eventId: z.string().uuid() }) }),
  z.object({ ...base, kind: z.literal('log'), log: logSchema.extend({ id: z.string().uuid() }) }),
  z.object({ ...base, kind: z.literal('vitals'), vitals: vitalsSchema.extend({ id: z.string().uuid() }) }),
  z.object({ ...base, kind: z.literal('feedback'), feedback: feedbackSchema.extend({ id: z.string().uuid() }) }),
]);

export function encodeJob(job: Job): string {
  return JSON.stringify(job);
}

/** Throws on a payload this version cannot read; the worker dead-letters it. */
export function decodeJob(payload: string): Job {
  return jobSchema.parse(JSON.parse(payload)) as Job;
}
