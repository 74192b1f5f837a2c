import { decodeJob, persistEvents, prepareEvent, type PersistResult, type PreparedEvent } from '@tracker/core';
import type { DataSource } from 'typeorm';

export interface BatchOutcome extends PersistResult {
  /** Messages that can never be processed (unreadable payload), by index in the input. */
  unreadable: Array<{ index: number; error: string }>;
}

/**
 * parse → group → persist, in one transaction for the whole batch. Pure steps first, so a
 * job that cannot be read is set aside without touching the database.
 */
export async function processBatch(ds: DataSource, payloads: string[]): Promise<BatchOutcome> {
  const prepared: PreparedEvent[] = [];
  const unreadable: BatchOutcome['unreadable'] = [];
  payloads.forEach((payload, index) => {
    try {
      prepared.push(prepareEvent(decodeJob(payload)));
    } catch (err) {
      unreadable.push({ index, error: (err as Error).message.slice(0, 500) });
    }
  });
  const result = await ds.transaction((em) => persistEvents(em, prepared));
  return { ...result, unreadable };
}
