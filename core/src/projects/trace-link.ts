import type { DataSource } from 'typeorm';
import { requireProjectAccess, type Caller } from '../access';
import { Project } from '../entities';
import { AppError } from '../errors';
import { MANAGERS } from '../organizations/roles';

export const MAX_TRACE_URL_TEMPLATE_CHARS = 500;
const PLACEHOLDER = /\{([^{}]*)\}/g;
const PLACEHOLDERS = new Set(['traceId', 'spanId']);

/**
 * Owners and admins set where the issue page links an event's trace id: an http(s) URL with
 * `{traceId}` (and optionally `{spanId}`), e.g. Jaeger's `https://jaeger.example.com/trace/{traceId}`
 * or Grafana Tempo's explore URL. Null or blank removes the link. A `write` token will do: a link
 * sends no data anywhere until someone clicks it.
 */
export async function updateProjectTraceLink(
  ds: DataSource,
  caller: Caller,
  projectId: string,
  template: string | null,
): Promise<Project> {
  const value = normalizeTraceUrlTemplate(template);
  const { project } = await requireProjectAccess(
    ds,
    caller,
    projectId,
    { roles: MANAGERS, scope: 'write' },
    'change the trace link',
  );
  await ds.manager.update(Project, { id: project.id }, { traceUrlTemplate: value });
  return Object.assign(project, { traceUrlTemplate: value });
}

/** The template as stored, or BAD_USER_INPUT saying what is wrong with it. */
export function normalizeTraceUrlTemplate(template: string | null): string | null {
  const text = template?.trim() ?? '';
  if (text === '') return null;
  if (text.length > MAX_TRACE_URL_TEMPLATE_CHARS) {
    throw new AppError('BAD_USER_INPUT', `template: at most ${MAX_TRACE_URL_TEMPLATE_CHARS} characters`);
  }
  const names = [...text.matchAll(PLACEHOLDER)].map((m) => m[1]);
  const unknown = names.find((name) => !PLACEHOLDERS.has(name));
  if (unknown !== undefined) {
    throw new AppError('BAD_USER_INPUT', `template: unknown placeholder {${unknown}}; use {traceId} and {spanId}`);
  }
  if (!names.includes('traceId')) throw new AppError('BAD_USER_INPUT', 'template: must contain {traceId}');
  let url: URL;
  try {
    url = new URL(traceUrl(text, '0'.repeat(32), '0'.repeat(16)));
  } catch {
    throw new AppError('BAD_USER_INPUT', 'template: not a URL once {traceId} is filled in');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new AppError('BAD_USER_INPUT', 'template: must be an http or https URL');
  }
  if (url.username || url.password) throw new AppError('BAD_USER_INPUT', 'template: must not carry credentials');
  return text;
}

/** The template with the ids filled in (URL-encoded; a missing span id leaves an empty value). */
export function traceUrl(template: string, traceId: string, spanId: string | null): string {
  return template.replace(PLACEHOLDER, (_, name: string) =>
    encodeURIComponent(name === 'traceId' ? traceId : (spanId ?? '')),
  );
}
