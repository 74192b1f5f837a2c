import type { JsonObject } from '../sentry/sentry-values';
import { attributesOf, scalarText } from './otlp-values';

/** What a resource (the service that sent) gives every record under it. */
export interface OtlpResource {
  /** `service.name`, as the tag `service` (the Logs page filters by it). */
  service?: string;
  /** `service.version`: the release. */
  release?: string;
  /** `deployment.environment.name` (semantic conventions 1.27+) or `deployment.environment`. */
  environment?: string;
  /** The other resource attributes (host, process, SDK…), kept in each record's context. */
  rest: JsonObject;
}

const LIFTED = ['service.name', 'service.version', 'deployment.environment.name', 'deployment.environment'];

/** Reads `resource.attributes`; OTel SDKs always set `service.name` (`unknown_service:node` by default). */
export function readOtlpResource(resource: unknown): OtlpResource {
  const attributes = attributesOf((resource as { attributes?: unknown } | null | undefined)?.attributes);
  const rest: JsonObject = {};
  for (const [k, v] of Object.entries(attributes)) if (!LIFTED.includes(k)) rest[k] = v;
  return {
    service: scalarText(attributes['service.name']),
    release: scalarText(attributes['service.version']),
    environment:
      scalarText(attributes['deployment.environment.name']) ?? scalarText(attributes['deployment.environment']),
    rest,
  };
}

/** The fields of a Tracker body that come from the resource (`environment` defaults to `production`). */
export function resourceFields(r: OtlpResource): JsonObject {
  // Always set (the schemas' default), so that a mapped body is already what they return.
  const out: JsonObject = { environment: r.environment ?? 'production' };
  if (r.release) out.release = r.release;
  if (r.service) out.tags = { service: r.service };
  return out;
}
