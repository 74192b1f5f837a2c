import type { LogLevel } from './log.schema';
import type { LogJob } from './job';
import { clampTimestamp } from './normalize';
import { contextWithMeta } from './prepare-event';

/** A log record ready to persist. Pure data, no database. */
export interface PreparedLog {
  projectId: string;
  id: string;
  level: LogLevel;
  message: string;
  context: Record<string, unknown> | null;
  environment: string;
  release: string | null;
  tags: Record<string, string>;
  timestamp: Date;
  receivedAt: Date;
}

export function prepareLog(job: LogJob): PreparedLog {
  const l = job.log;
  const receivedAt = new Date(job.receivedAt);
  const time = clampTimestamp(l.timestamp, receivedAt);
  return {
    projectId: job.projectId,
    id: l.id,
    level: l.level,
    message: l.message,
    context: contextWithMeta(l.context, l.timestamp, time.replaced),
    environment: l.environment,
    release: l.release ?? null,
    tags: l.tags ?? {},
    timestamp: time.at,
    receivedAt,
  };
}
