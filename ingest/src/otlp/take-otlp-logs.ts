import { randomUUID } from 'node:crypto';
import { setImmediate } from 'node:timers/promises';
import {
  AppError,
  encodeJob,
  encodeJobBytes,
  logSchema,
  scrubberFor,
  type KeyInfo,
  type LogBody,
  type OtlpLogCandidate,
} from '@tracker/core';
import { admitOnce } from '../http/error.route';
import { parseBody } from '../http/parse-body';
import { isCanonicalLogBody } from './log-body.canonical';
import { AdmissionRefusal } from '../quota';
import type { QueuePayload } from '../queue';
import type { TakeDeps } from '../sentry/take-items';

/** What the records of one OTLP request came to. */
export interface TakenRecords {
  payloads: QueuePayload[];
  /** Records refused: unreadable, invalid, or over a limit (`partial_success.rejected_*`). */
  rejected: number;
  /** The first reason a record was refused, for `partial_success.error_message` or the 400. */
  problem?: AppError;
  /** The gate's refusal, when it stopped taking records (429 with Retry-After if nothing was taken). */
  refusal?: AdmissionRefusal;
}

/** Records taken between two yields to the event loop (a 10,000-record request is ~0.1 s of CPU). */
export const YIELD_EVERY = 256;

/**
 * OTLP log records through the same steps as `POST /ingest/log`: `logSchema` (normalization,
 * limits), the project's scrubbing, the gate (the key's rate limit and the `logs` quota, one
 * unit per record), one `log` job each. A bad record is refused alone; once the gate refuses,
 * the rest of the request is refused with it (the exporter retries after Retry-After).
 */
export async function takeOtlpLogs(
  key: KeyInfo,
  candidates: OtlpLogCandidate[],
  receivedAt: string,
  deps: TakeDeps,
): Promise<TakenRecords> {
  const taken: TakenRecords = { payloads: [], rejected: 0 };
  const scrubber = scrubberFor(key.privacy);
  const { projectId } = key;
  for (let i = 0; i < candidates.length; i++) {
    if (i > 0 && i % YIELD_EVERY === 0) await setImmediate();
    const candidate = candidates[i];
    if (candidate.problem !== undefined) {
      refuse(taken, new AppError('BAD_USER_INPUT', candidate.problem));
      continue;
    }
    try {
      // Most mapped records are already what the schema returns: skip zod for those (log-body.canonical.ts).
      const valid = isCanonicalLogBody(candidate.body) ? candidate.body : parseBody(logSchema, candidate.body);
      const log = scrubber.log(valid);
      const admitted = admitOnce(deps, key, 'logs', undefined);
      if (admitted) await admitted;
      taken.payloads.push(logJob(projectId, receivedAt, log));
    } catch (err) {
      if (err instanceof AdmissionRefusal) {
        taken.refusal = err;
        taken.rejected += candidates.length - i;
        break;
      }
      if (!(err instanceof AppError)) throw err;
      refuse(taken, new AppError(err.code, `log record ${i + 1}: ${err.message}`));
    }
  }
  return taken;
}

/**
 * `encodeJob({ v: 1, kind: 'log', projectId, receivedAt, log: { ...log, id } })` as the UTF-8
 * bytes of the very same text (the queue takes either), without copying the log to add its id
 * nor serializing the envelope again for each record: the id, a UUID, goes last as the spread
 * puts it. Bytes, encoded once: the queue's writer copies them as they are, where a string is
 * measured twice and encoded there. A body holding an `id` key (the mapper writes none) keeps
 * the spread.
 */
function logJob(projectId: string, receivedAt: string, log: LogBody): QueuePayload {
  const id = randomUUID();
  if ('id' in log) return encodeJob({ v: 1, kind: 'log', projectId, receivedAt, log: { ...log, id } });
  // The job's body is `log` with `id`, which encodeJobBytes appends as the added field.
  const job = { v: 1, kind: 'log', projectId, receivedAt, log: log as LogBody & { id: string } } as const;
  return encodeJobBytes(job, JSON.stringify(log), { name: 'id', value: id });
}

export function refuse(taken: TakenRecords, problem: AppError): void {
  taken.rejected += 1;
  taken.problem ??= problem;
}
