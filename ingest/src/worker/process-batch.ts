import {
  addInboundFilterCounts,
  errorMessage,
  type InboundFilterCount,
  IssuesChangedError,
  someInErrorChain,
  decodeJob,
  type EventSymbolicator,
  type PersistOptions,
  persistEvents,
  persistFeedback,
  persistCheckIns,
  persistLogs,
  persistSessions,
  persistVitals,
  prepareEvent,
  prepareFeedback,
  prepareLog,
  prepareVitals,
  type CheckInsResult,
  type FeedbackResult,
  type LogsResult,
  type Job,
  type PersistResult,
  type PreparedCheckIn,
  type PreparedEvent,
  type PreparedFeedback,
  type PreparedLog,
  type PreparedSession,
  type PreparedVitals,
  type RecordsResult,
  type SessionsResult,
} from '@tracker/core';
import type { DataSource } from 'typeorm';

/** `inserted`, `duplicates` and `newIssueIds` are about error events; the other kinds have their own. */
export interface BatchOutcome extends PersistResult {
  logs: LogsResult;
  vitals: RecordsResult;
  feedback: FeedbackResult;
  sessions: SessionsResult;
  /** Cron check-ins (issue 33). */
  checkIns: CheckInsResult;
  /** Messages that can never be processed (unreadable payload), by index in the input. */
  unreadable: Array<{ index: number; error: string }>;
  /** The late locks met a user action on one of the batch's issues, and the batch was redone (decision 033). */
  relocked: boolean;
}

/** A batch after the pure steps (decode, parse, group), ready for its transaction. */
export interface PreparedBatch {
  events: PreparedEvent[];
  logs: PreparedLog[];
  vitals: PreparedVitals[];
  feedback: PreparedFeedback[];
  /** Session updates and aggregates: counters, summed per batch (decision 045). */
  sessions: PreparedSession[];
  /** What the edges' inbound filters dropped, counted per project, filter and day (issue 31). */
  filtered: InboundFilterCount[];
  /** Cron check-ins, stored and ruled on in the batch's transaction (docs/monitors.md). */
  checkIns: PreparedCheckIn[];
  /** Payloads that could not be read, by index in the input. */
  unreadable: Array<{ index: number; error: string }>;
}

export function emptyBatch(): PreparedBatch {
  return { events: [], logs: [], vitals: [], feedback: [], sessions: [], filtered: [], checkIns: [], unreadable: [] };
}

/**
 * The pure steps for some of a batch's payloads, added to `batch`; `offset` is the index of
 * `payloads[0]` in the whole batch. A job that cannot be read is set aside without touching
 * the database.
 */
export function prepareJobs(batch: PreparedBatch, payloads: string[], offset = 0): void {
  for (let i = 0; i < payloads.length; i++) {
    try {
      addPrepared(batch, decodeJob(payloads[i]));
    } catch (err) {
      batch.unreadable.push({ index: offset + i, error: errorMessage(err).slice(0, 500) });
    }
  }
}

/** What the steps need beyond the database. */
export interface BatchContext extends PersistOptions {
  /** De-minifies stack frames with uploaded source maps; absent = frames stay as sent. */
  symbolicator?: EventSymbolicator;
}

/**
 * The async part of preparing: source maps (they are read from the database) and the regrouping
 * on original frames. Outside the transaction, so it overlaps with the previous batch's.
 */
export async function symbolicateBatch(batch: PreparedBatch, context: BatchContext): Promise<void> {
  if (context.symbolicator && batch.events.length > 0) await context.symbolicator.apply(batch.events);
}

/**
 * Persists a prepared batch in one transaction. The issues' locks are taken late (decision 033);
 * when a user action changed one of the batch's issues meanwhile (`IssuesChangedError`, or its
 * consequences: a foreign key to an issue deleted under the insert, a deadlock with the action's
 * locks), the transaction has rolled back and the batch is done once more with the locks first.
 */
export async function persistBatch(
  ds: DataSource,
  batch: PreparedBatch,
  context: BatchContext = {},
): Promise<BatchOutcome> {
  let lockIssuesEarly = context.lockIssuesEarly === true;
  for (let attempt = 0; ; attempt++) {
    try {
      const outcome = await persistBatchOnce(ds, batch, { ...context, lockIssuesEarly });
      return { ...outcome, relocked: attempt > 0 };
    } catch (err) {
      // With the locks first, an action that gets a lock first only makes the batch read again
      // under the locks it holds; a deadlock or a deleted issue can still end an attempt. Past a
      // few, the worker's own failure handling (retry in hand, split) takes over.
      if (attempt >= MAX_RELOCKS || !isIssueRace(err)) throw err;
      lockIssuesEarly = true;
    }
  }
}

/** Attempts with the locks first after the late path met a user action. */
const MAX_RELOCKS = 3;

async function persistBatchOnce(ds: DataSource, batch: PreparedBatch, context: BatchContext): Promise<BatchOutcome> {
  const result = await ds.transaction(async (em) => {
    // Events before feedback: feedback sent right after its error usually shares the batch,
    // and then finds the event (and its issue) already written in this transaction.
    const events = await persistEvents(em, batch.events, context);
    const logs = await persistLogs(em, batch.logs, context);
    const vitals = await persistVitals(em, batch.vitals);
    const feedback = await persistFeedback(em, batch.feedback);
    const sessions = await persistSessions(em, batch.sessions);
    await addInboundFilterCounts(em, batch.filtered);
    const checkIns = await persistCheckIns(em, batch.checkIns, {
      now: (context.clock ?? Date.now)(),
      publicUrl: context.publicUrl ?? '',
    });
    // Error rules, LOG_MATCH and MONITOR_FAILED rules all write to the outbox; the worker queues them together.
    return {
      ...events,
      alertDeliveryIds: [...events.alertDeliveryIds, ...logs.alertDeliveryIds, ...checkIns.alertDeliveryIds],
      checkIns,
      logs,
      vitals,
      feedback,
      sessions,
    };
  });
  return { ...result, unreadable: batch.unreadable, relocked: false };
}

/** A race of the late locks with a user action on one of the batch's issues (see `persistBatch`). */
function isIssueRace(err: unknown): boolean {
  return someInErrorChain(err, (e) => {
    if (e instanceof IssuesChangedError) return true;
    const { code, detail } = e as { code?: unknown; detail?: unknown };
    if (code === '40P01') return true; // deadlock_detected
    // foreign_key_violation on a reference to issues (events, issue_users, issue_tag_values)
    return code === '23503' && typeof detail === 'string' && detail.includes('table "issues"');
  });
}

/** decode → prepare (per kind) → persist, in one transaction for the whole batch. */
export async function processBatch(
  ds: DataSource,
  payloads: string[],
  context: BatchContext = {},
): Promise<BatchOutcome> {
  const batch = emptyBatch();
  prepareJobs(batch, payloads);
  await symbolicateBatch(batch, context);
  return persistBatch(ds, batch, context);
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
    case 'session':
      batch.sessions.push({ ...job.session, projectId: job.projectId });
      return;
    case 'filtered':
      batch.filtered.push({ projectId: job.projectId, ...job.filtered });
      return;
    case 'check_in':
      batch.checkIns.push({ ...job.checkIn, projectId: job.projectId, receivedAt: new Date(job.receivedAt) });
      return;
  }
}
