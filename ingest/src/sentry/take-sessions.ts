import { encodeJob, mapSentrySession, type KeyInfo, type SessionBody } from '@tracker/core';
import type { IngestGate } from '../quota';
import type { QueuePayload } from '../queue';
import { parseSentryJson, type EnvelopeItem } from './parse-envelope';

/**
 * A `session` or `sessions` item as the body of a session job; throws BAD_USER_INPUT (the item
 * alone is dropped, the envelope's other items are kept).
 */
export function readSentrySession(item: EnvelopeItem, type: 'session' | 'sessions', what: string): SessionBody {
  return mapSentrySession(parseSentryJson(item.payload, what), type);
}

/**
 * One job per item, whatever the number of sessions it counts. Sessions pass the key's rate
 * limit (one unit per item, like feedback) and never the event quota: a healthy session is not
 * an event, and Sentry does not bill them either (docs/quotas.md, decision 045).
 */
export async function takeSession(
  key: KeyInfo,
  session: SessionBody,
  receivedAt: string,
  gate: IngestGate | undefined,
): Promise<QueuePayload> {
  const admitted = gate?.admit(key, null);
  if (admitted) await admitted;
  return encodeJob({ v: 1, kind: 'session', projectId: key.projectId, receivedAt, session });
}
