import {
  decodeJob,
  persistEvents,
  persistFeedback,
  persistLogs,
  persistVitals,
  prepareEvent,
  prepareFeedback,
  prepareLog,
  prepareVitals,
  type FeedbackResult,
  type Job,
  type PersistResult,
  type PreparedEvent,
  type PreparedFeedback,
  type PreparedLog,
  type PreparedVitals,
  type RecordsResult,
} from '@tracker/core';
import type { DataSource } from 'typeorm';

/** `inserted`, `duplicates` and `newIssueIds` are about error events; the other kinds have their own. */
export interface BatchOutcome extends PersistResult {
  logs: RecordsResult;
  vitals: RecordsResult;
  feedback: FeedbackResult;
  /** Messages that can never be processed (unreadable payload), by index in the input. */
  unreadable: Array<{ index: number; error: string }>;
}

interface PreparedBatch {
  events: PreparedEvent[];
  logs: PreparedLog[];
  vitals: PreparedVitals[];
  feedback: PreparedFeedback[];
}

/**
 * decode → prepare (per kind) → persist, in one transaction for the whole batch. Pure steps
 * first, so a job that cannot be read is set aside without touching the database.
 */
export async function processBatch(ds: DataSource, payloads: string[]): Promise<BatchOutcome> {
  const batch: PreparedBatch = { events: [], logs: [], vitals: [], feedback: [] };
  const unreadable: BatchOutcome['unreadable'] = [];
  payloads.forEach((payload, index) => {
    try {
      addPrepared(batch, decodeJob(payload));
    } catch (err) {
      unreadable.push({ index, error: (err as Error).message.slice(0, 500) });
    }
  });
  const result = await ds.transaction(async (em) => {
    // Events before feedback: feedback sent right after its error usually shares the batch,
    // and then finds the event (and its issue) already written in this transaction.
    const events = await persistEvents(em, batch.events);
    const logs = await persistLogs(em, batch.logs);
    const vitals = await persistVitals(em, batch.vitals);
    const feedback = await persistFeedback(em, batch.feedback);
    return { ...events, logs, vitals, feedback };
  });
  return { ...result, unreadable };
}

function addPrepared(batch: PreparedBatch, job: Job): void {
  switch (job.kind) {
    case 'error':
      batch.events.push(prepareEvent(job));
      return;
    case 'log':
      batch.logs.push(prepareLog(job));
      return;
    case 'vitals':
      batch.vitals.push(prepareVitals(job));
      return;
    case 'feedback':
      batch.feedback.push(prepareFeedback(job));
      return;
  }
}
