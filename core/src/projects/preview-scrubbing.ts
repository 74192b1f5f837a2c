import type { DataSource } from 'typeorm';
import { requireProjectAccess, type Caller } from '../access';
import { AppError } from '../errors';
import { errorEventSchema } from '../events/error-event.schema';
import { parseBody } from '../events/parse-body';
import { scrubberFor, type PrivacySettings } from '../privacy';
import { sensitiveFieldNames } from './manage-project';

/** A sample is typed in a form: larger ones are not what a preview is for. */
export const MAX_PREVIEW_SAMPLE_CHARS = 32_768;

/** A sample error event, as an SDK would send it, with the usual suspects in it. */
export const SAMPLE_ERROR_EVENT = {
  type: 'TypeError',
  message: 'Payment failed for card 4111 1111 1111 1111 from 203.0.113.7',
  environment: 'production',
  release: '1.4.2',
  stack: 'TypeError: Payment failed\n    at charge (https://shop.example/static/app.js:12:7)',
  user: { id: 'u-42', email: 'ada@example.com', ip_address: '203.0.113.7' },
  tags: { locale: 'en-GB', customer_ssn: '078-05-1120' },
  context: {
    request: {
      url: 'https://shop.example/checkout?step=pay',
      headers: { Authorization: 'Bearer abc123', Cookie: 'sid=s3cr3t', 'User-Agent': 'Mozilla/5.0' },
      data: { password: 'hunter2', card: '4111111111111111', note: 'call me at 198.51.100.23' },
    },
    order: { id: 'o-1001', birth_date: '1990-01-01' },
  },
};

export interface ScrubbingPreview {
  /** The event as the edge would queue it (and the worker store it), without its generated id. */
  event: Record<string, unknown>;
  /** The settings the preview used: the project's, with the draft's changes on top. */
  settings: PrivacySettings;
}

/**
 * What `sample` (an error event's JSON, as an SDK posts to `/ingest/error`) becomes after the
 * edge's parsing and scrubbing, with the project's privacy settings or, for a live preview of a
 * form being edited, `draft` on top of them. The same two functions the edge calls
 * (`parseBody`, `scrubberFor(…).errorEvent`), so the preview is what would be stored. Any member
 * may preview: every member reads `Project.privacy` already.
 */
export async function previewScrubbing(
  ds: DataSource,
  caller: Caller,
  input: { projectId: string; sample: string; draft?: Partial<PrivacySettings> },
): Promise<ScrubbingPreview> {
  const { project } = await requireProjectAccess(ds, caller, input.projectId, 'read', 'preview scrubbing');
  if (input.sample.length > MAX_PREVIEW_SAMPLE_CHARS) {
    throw new AppError(
      'BAD_USER_INPUT',
      `sample: at most ${MAX_PREVIEW_SAMPLE_CHARS.toLocaleString('en-US')} characters`,
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(input.sample);
  } catch {
    throw new AppError('BAD_USER_INPUT', 'sample: not valid JSON');
  }
  const draft = input.draft ?? {};
  const settings: PrivacySettings = {
    scrubDefaults: draft.scrubDefaults ?? project.scrubDefaults,
    scrubIpAddresses: draft.scrubIpAddresses ?? project.scrubIpAddresses,
    sensitiveFields:
      draft.sensitiveFields !== undefined ? sensitiveFieldNames(draft.sensitiveFields) : project.sensitiveFields,
  };
  let parsed;
  try {
    parsed = parseBody(errorEventSchema, body);
  } catch (err) {
    if (err instanceof AppError) throw new AppError('BAD_USER_INPUT', `sample: ${err.message}`);
    throw err;
  }
  const { eventId: _eventId, ...event } = scrubberFor(settings).errorEvent(parsed) as Record<string, unknown>;
  return { event, settings };
}
