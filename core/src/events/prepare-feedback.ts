import type { FeedbackJob } from './job';

/** User feedback ready to persist; its issue is looked up at write time, from its event. */
export interface PreparedFeedback {
  projectId: string;
  id: string;
  message: string;
  email: string | null;
  /** Who wrote it and on which page; absent (null) from feedback of our own older SDKs. */
  name?: string | null;
  url?: string | null;
  eventId: string | null;
  receivedAt: Date;
}

export function prepareFeedback(job: FeedbackJob): PreparedFeedback {
  const f = job.feedback;
  return {
    projectId: job.projectId,
    id: f.id,
    message: f.message,
    email: f.email ?? null,
    name: f.name ?? null,
    url: f.url ?? null,
    eventId: f.eventId ?? null,
    receivedAt: new Date(job.receivedAt),
  };
}
