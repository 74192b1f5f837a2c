import type { LoaderFunctionArgs } from '@remix-run/node';
import { EVENT_JSON_QUERY } from '../features/issue/queries';
import { queryApi } from '../lib/graphql.server';

/** A thrown Response: a resource route hands it back as it is. */
function notFound(): Response {
  return new Response(
    JSON.stringify({ error: { code: 'NOT_FOUND', message: 'This event does not exist or is not yours.' } }),
    { status: 404, headers: { 'Content-Type': 'application/json; charset=utf-8' } },
  );
}

/**
 * `/projects/:projectId/issues/:issueId/events/<event id>.json`: the stored event (scrubbed at
 * ingest, as stored) as JSON, to read in the browser or, with `?download=1`, to save as a file.
 * A resource route: it asks the API for `Issue.event(id) { json }` like the page does, so the same
 * access rule answers; another issue's or project's event is a 404 like a missing one.
 */
export async function loader(args: LoaderFunctionArgs) {
  const file = args.params.file ?? '';
  const eventId = file.endsWith('.json') ? file.slice(0, -'.json'.length) : '';
  if (eventId === '') throw notFound();
  const { issue } = await queryApi(args, EVENT_JSON_QUERY, { issueId: args.params.issueId ?? '', eventId });
  const json = issue?.event?.json;
  if (!issue || !json || issue.projectId.toLowerCase() !== (args.params.projectId ?? '').toLowerCase()) {
    throw notFound();
  }
  const download = new URL(args.request.url).searchParams.has('download');
  const headers: Record<string, string> = {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
  };
  // The id is a UUID the API matched, so it is safe in a header.
  if (download)
    headers['Content-Disposition'] = `attachment; filename="event-${eventId.replace(/[^0-9a-f-]/gi, '')}.json"`;
  return new Response(`${JSON.stringify(json, null, 2)}\n`, { status: 200, headers });
}
