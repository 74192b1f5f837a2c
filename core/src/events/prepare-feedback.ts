import type { FeedbackJob } from './job';

/** User feedback ready to persist; its issue is looked up at write time, from its event. */
export interface PreparedFeedback {
  projectId: string;
  id: string;
  message: string;
  email: string | null;
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
    eventId: f.eventId ?? null,
    receivedAt: new Date(job.receivedAt),
  };
}
