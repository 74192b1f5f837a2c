import { setImmediate } from 'node:timers/promises';
import { AppError, mapOtlpSpans, type KeyInfo } from '@tracker/core';
import { admitOnce, DISCARDED_ISSUE, prepareMappedErrorJob } from '../http/error.route';
import { AdmissionRefusal } from '../quota';
import type { TakeDeps } from '../sentry/take-items';
import { refuse, YIELD_EVERY, type TakenRecords } from './take-otlp-logs';

/**
 * The spans of an `ExportTraceServiceRequest`: each exception event becomes an error event
 * through the same steps as `POST /ingest/error` (`prepareMappedErrorJob`: the schema, scrubbing,
 * discarded issues; then the `events` quota); spans without one are counted and dropped. A
 * span that cannot be read is refused alone. `checkCount` refuses a request with too many spans
 * (413) before anything is admitted.
 */
export async function takeOtlpSpans(
  key: KeyInfo,
  request: unknown,
  receivedAt: string,
  deps: TakeDeps,
  checkCount: (count: number, what: string) => void,
): Promise<TakenRecords> {
  const mapped = mapOtlpSpans(request);
  checkCount(mapped.spans, 'spans');
  const taken: TakenRecords = { payloads: [], rejected: 0 };
  for (const problem of mapped.problems) refuse(taken, new AppError('BAD_USER_INPUT', problem));
  if (deps.counters) deps.counters.otlpSpansDropped += mapped.dropped;
  for (let i = 0; i < mapped.events.length; i++) {
    if (i > 0 && i % YIELD_EVERY === 0) await setImmediate();
    try {
      const { payload, discarded, filtered } = prepareMappedErrorJob(key, mapped.events[i], receivedAt);
      if (filtered !== undefined) {
        deps.counters?.filter(key.projectId, filtered);
        continue;
      }
      if (discarded) {
        deps.counters?.discard(DISCARDED_ISSUE);
        continue;
      }
      const admitted = admitOnce(deps, key, 'events', undefined);
      if (admitted) await admitted;
      taken.payloads.push(payload);
    } catch (err) {
      if (err instanceof AdmissionRefusal) {
        taken.refusal = err;
        taken.rejected += mapped.events.length - i;
        break;
      }
      if (!(err instanceof AppError)) throw err;
      refuse(taken, new AppError(err.code, `exception event ${i + 1}: ${err.message}`));
    }
  }
  return taken;
}
