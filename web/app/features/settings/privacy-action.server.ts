import type { ActionFunctionArgs } from '@remix-run/node';
import { readString } from '../../lib/form.server';
import { mutateApi } from '../../lib/graphql.server';
import { PREVIEW_SCRUBBING, UPDATE_PRIVACY } from './privacy-queries';
import type { SettingsActionResult } from './settings-action.server';

export const PRIVACY_INTENTS = ['previewPrivacy', 'updatePrivacy'] as const;

export type PrivacyActionResult = SettingsActionResult & {
  /** The scrubbed sample (JSON), for the form's settings as they are, saved or not. */
  preview: { sample: string; event: string } | null;
};

/** The form's settings: one field name per line (commas also separate), blanks dropped. The API checks them. */
function readDraft(form: FormData) {
  return {
    scrubDefaults: form.get('scrubDefaults') === 'on',
    scrubIpAddresses: form.get('scrubIpAddresses') === 'on',
    sensitiveFields: readString(form, 'sensitiveFields')
      .split(/[\n,]/)
      .map((s) => s.trim())
      .filter((s) => s.length > 0),
  };
}

/**
 * "Preview" scrubs the sample with the form's settings without saving them (the live preview
 * submits the same intent on every change, through a fetcher); "Save" stores them and previews
 * with what is now stored.
 */
export async function runPrivacyAction(args: ActionFunctionArgs, form: FormData): Promise<PrivacyActionResult> {
  const projectId = args.params.projectId ?? '';
  const draft = readDraft(form);
  const sample = readString(form, 'sample');
  let done: string | null = null;
  if (readString(form, 'intent') === 'updatePrivacy') {
    const saved = await mutateApi(args, UPDATE_PRIVACY, { id: projectId, input: draft });
    if (!saved.ok) return { error: saved.error.message, done: null, secret: null, preview: null };
    done = 'Privacy settings saved: the next event is scrubbed with them.';
  }
  const r = await mutateApi(args, PREVIEW_SCRUBBING, { projectId, sample: sample || null, draft });
  if (!r.ok) return { error: r.error.message, done, secret: null, preview: null };
  return { error: null, done, secret: null, preview: r.data.previewScrubbing };
}
