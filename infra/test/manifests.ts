/**
 * Loads the Kubernetes manifests of infra/k8s and checks them: against the Kubernetes schemas
 * (kubernetes-models, generated from the upstream OpenAPI spec), and against what Tracker itself
 * reads and serves (core/src/config.ts, server/src). Every check returns problems as text rather
 * than throwing, so the tests can also show that a broken copy of the manifests is refused.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseAllDocuments } from 'yaml';

export const REPO = join(__dirname, '..', '..');
export const K8S_DIR = join(REPO, 'infra', 'k8s');
export const BASE_DIR = join(K8S_DIR, 'base');

export type Doc = Record<string, any>;
export interface LoadedDoc {
  file: string;
  doc: Doc;
}

/** Every YAML document under infra/k8s (base and the example Secret), in file order. */
export function loadManifests(): { docs: LoadedDoc[]; problems: string[] } {
  const docs: LoadedDoc[] = [];
  const problems: string[] = [];
  const files = [
    ...readdirSync(BASE_DIR).map((f) => join(BASE_DIR, f)),
    ...readdirSync(K8S_DIR).map((f) => join(K8S_DIR, f)),
  ].filter((f) => /\.ya?ml$/.test(f));
  for (const path of files) {
    const file = relative(REPO, path);
    for (const d of parseAllDocuments(readFileSync(path, 'utf8'), { prettyErrors: true })) {
      // A YAML error or warning (duplicate key, bad indentation) is a broken manifest.
      for (const e of [...d.errors, ...d.warnings]) problems.push(`${file}: ${e.message}`);
      const doc = d.toJS();
      if (doc !== null && doc !== undefined) docs.push({ file, doc });
    }
  }
  return { docs, problems };
}

/**
 * The API versions the manifests may use: GA versions served by every Kubernetes release from
 * 1.30 (the oldest we claim) on (kubernetes-models is pinned to 4.5: 5.x needs Node 22, issue 31). The
 * package merges older specs in too, so without this list a removed API (policy/v1beta1) would
 * still validate.
 */
export const KINDS: Record<string, { module: string; kind: string }> = {
  'v1/ConfigMap': { module: 'kubernetes-models/v1', kind: 'ConfigMap' },
  'v1/Secret': { module: 'kubernetes-models/v1', kind: 'Secret' },
  'v1/Service': { module: 'kubernetes-models/v1', kind: 'Service' },
  'apps/v1/Deployment': { module: 'kubernetes-models/apps/v1', kind: 'Deployment' },
  'batch/v1/Job': { module: 'kubernetes-models/batch/v1', kind: 'Job' },
  'autoscaling/v2/HorizontalPodAutoscaler': {
    module: 'kubernetes-models/autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
  },
  'policy/v1/PodDisruptionBudget': { module: 'kubernetes-models/policy/v1', kind: 'PodDisruptionBudget' },
  'networking.k8s.io/v1/Ingress': { module: 'kubernetes-models/networking.k8s.io/v1', kind: 'Ingress' },
};

/** Validates each object with the model class of its apiVersion and kind (ajv over the OpenAPI schema). */
export async function schemaProblems(docs: LoadedDoc[]): Promise<string[]> {
  const problems: string[] = [];
  for (const { file, doc } of docs) {
    if (doc.kind === 'Kustomization') continue; // kustomize's own file, not a Kubernetes object
    const id = `${doc.apiVersion}/${doc.kind}`;
    const entry = KINDS[id];
    if (!entry) {
      problems.push(`${file}: ${id} is not an API this deployment allows (${Object.keys(KINDS).join(', ')})`);
      continue;
    }
    // kubernetes-models is ESM only; this package is CommonJS like the rest of the repo.
    const mod = (await import(entry.module)) as Record<string, new (data: unknown) => { validate(): void }>;
    try {
      new mod[entry.kind](doc).validate();
    } catch (err) {
      problems.push(`${file}: ${doc.kind} ${doc.metadata?.name}: ${(err as Error).message}`);
    }
  }
  return problems;
}

/**
 * The environment variables Tracker reads: the keys of `envSchema` in core/src/config.ts, the
 * only place that reads `process.env` (its own comment says so). Read from the source because
 * the schema is not exported and zod ignores unknown keys, so loadConfig cannot tell us.
 */
export function envVarsTrackerReads(): Set<string> {
  const source = readFileSync(join(REPO, 'core', 'src', 'config.ts'), 'utf8');
  const start = source.indexOf('const envSchema = z.object({');
  const end = source.indexOf('\n});', start);
  if (start < 0 || end < 0) throw new Error('envSchema not found in core/src/config.ts: update envVarsTrackerReads');
  const names = [...source.slice(start, end).matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]);
  return new Set(names);
}

const byKind = (docs: LoadedDoc[], kind: string) => docs.filter((d) => d.doc.kind === kind);
const matches = (selector: Record<string, string> | undefined, labels: Record<string, string> | undefined) =>
  !!selector && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels?.[k] === v);

/** Names of variables whose values are credentials: they must come from the Secret, never a literal. */
export const SECRET_VARS = [
  'DATABASE_URL',
  'REDIS_URL',
  'TRACKER_SESSION_SECRET',
  'TRACKER_SMTP_URL',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
];

interface Workload {
  file: string;
  kind: string;
  name: string;
  podSpec: Doc;
  podLabels: Record<string, string>;
}

function workloads(docs: LoadedDoc[]): Workload[] {
  return docs
    .filter((d) => d.doc.kind === 'Deployment' || d.doc.kind === 'Job')
    .map(({ file, doc }) => ({
      file,
      kind: doc.kind,
      name: doc.metadata?.name,
      podSpec: doc.spec?.template?.spec ?? {},
      podLabels: doc.spec?.template?.metadata?.labels ?? {},
    }));
}

/**
 * The environment a container gets, resolved as the kubelet would: the ConfigMaps of `envFrom`,
 * then `env` (literals, and Secret keys taken from the example Secret). Unresolvable references
 * are problems.
 */
export function containerEnv(
  docs: LoadedDoc[],
  container: Doc,
  where: string,
  problems: string[],
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const from of container.envFrom ?? []) {
    if (from.secretRef) problems.push(`${where}: envFrom secretRef hides which variables it sets; list them in env`);
    const name = from.configMapRef?.name;
    if (!name) continue;
    const cm = byKind(docs, 'ConfigMap').find((d) => d.doc.metadata?.name === name);
    if (!cm) problems.push(`${where}: envFrom names ConfigMap ${name}, which no manifest defines`);
    Object.assign(env, cm?.doc.data ?? {});
  }
  const secrets = byKind(docs, 'Secret');
  for (const e of container.env ?? []) {
    if (e.valueFrom?.secretKeyRef) {
      const { name, key, optional } = e.valueFrom.secretKeyRef;
      const secret = secrets.find((d) => d.doc.metadata?.name === name);
      const value = secret?.doc.stringData?.[key] ?? secret?.doc.data?.[key];
      if (value === undefined)
        problems.push(`${where}: ${e.name} reads key ${key} of Secret ${name}, which the example Secret lacks`);
      else if (!optional) env[e.name] = value;
    } else if (e.valueFrom) {
      problems.push(
        `${where}: ${e.name} comes from ${Object.keys(e.valueFrom).join(', ')}; only secretKeyRef is expected`,
      );
    } else {
      env[e.name] = e.value;
    }
  }
  return env;
}

/** Ingress routing as the spec defines it: an Exact match wins, then the longest Prefix match by path element. */
export function routeOf(ingress: Doc, path: string): string | undefined {
  const rules = (ingress.spec?.rules ?? []).flatMap((r: Doc) => r.http?.paths ?? []);
  const exact = rules.find((p: Doc) => p.pathType === 'Exact' && p.path === path);
  if (exact) return exact.backend?.service?.name;
  const elements = (p: string) => p.split('/').filter(Boolean);
  const prefixes = rules
    .filter((p: Doc) => p.pathType === 'Prefix')
    .filter((p: Doc) => {
      const want = elements(p.path);
      const have = elements(path);
      return want.every((el, i) => have[i] === el);
    })
    .sort((a: Doc, b: Doc) => b.path.length - a.path.length);
  return prefixes[0]?.backend?.service?.name;
}

/** Every check that is not the schema's: what Tracker needs and what ties the objects together. */
/** Variables node itself reads (the worker role's V8 flag travels in NODE_OPTIONS). */
const NODE_ENV_VARS = new Set(['NODE_OPTIONS']);

export function semanticProblems(
  docs: LoadedDoc[],
  tracker: {
    roles: readonly string[];
    envVars: Set<string>;
    loadConfig: (env: Record<string, string>) => { roles: string[]; apiUrl?: string };
  },
): string[] {
  const problems: string[] = [];
  const deployments = byKind(docs, 'Deployment');
  const services = byKind(docs, 'Service');
  const configMap = byKind(docs, 'ConfigMap').find((d) => d.doc.metadata?.name === 'tracker')?.doc;
  const port = Number(configMap?.data?.PORT ?? 3000);

  // Variable names: only ones Tracker reads (a typo would be silently ignored by zod), or Node's own.
  const named = (name: string, where: string) => {
    if (!tracker.envVars.has(name) && !NODE_ENV_VARS.has(name))
      problems.push(`${where}: ${name} is not a variable Tracker reads (core/src/config.ts)`);
  };
  for (const { file, doc } of byKind(docs, 'ConfigMap')) for (const k of Object.keys(doc.data ?? {})) named(k, file);
  for (const { file, doc } of byKind(docs, 'Secret'))
    for (const k of Object.keys({ ...doc.data, ...doc.stringData })) named(k, file);
  for (const { file, doc } of byKind(docs, 'ConfigMap'))
    for (const k of SECRET_VARS)
      if (doc.data?.[k] !== undefined)
        problems.push(`${file}: ${k} is a credential: keep it in the Secret, not a ConfigMap`);

  // One Deployment per role, and every role has one.
  const roleOf = new Map<string, string>();
  for (const w of workloads(docs)) {
    const where = `${w.file}: ${w.kind} ${w.name}`;
    const containers: Doc[] = w.podSpec.containers ?? [];
    if (containers.length !== 1) problems.push(`${where}: expected one container, found ${containers.length}`);
    const c = containers[0] ?? {};
    for (const e of c.env ?? []) {
      named(e.name, where);
      if (SECRET_VARS.includes(e.name) && !e.valueFrom?.secretKeyRef)
        problems.push(`${where}: ${e.name} must come from a Secret (secretKeyRef), not a literal`);
    }
    const env = containerEnv(docs, c, where, problems);
    let config: { roles: string[]; apiUrl?: string } | undefined;
    try {
      config = tracker.loadConfig(env);
    } catch (err) {
      problems.push(`${where}: Tracker refuses this environment: ${(err as Error).message}`);
    }
    for (const k of ['DATABASE_URL', 'REDIS_URL'])
      if (w.kind === 'Deployment' && env[k] === undefined)
        problems.push(`${where}: ${k} is not set (production runs on PostgreSQL + Redis)`);

    // Hardening: non-root, no privilege escalation, read-only root, no capabilities.
    if (w.podSpec.securityContext?.runAsNonRoot !== true) problems.push(`${where}: pod must set runAsNonRoot: true`);
    const sc = c.securityContext ?? {};
    if (sc.allowPrivilegeEscalation !== false) problems.push(`${where}: allowPrivilegeEscalation must be false`);
    if (sc.readOnlyRootFilesystem !== true) problems.push(`${where}: readOnlyRootFilesystem must be true`);
    if (!(sc.capabilities?.drop ?? []).includes('ALL')) problems.push(`${where}: capabilities must drop ALL`);
    if (!c.resources?.requests?.cpu || !c.resources?.requests?.memory || !c.resources?.limits?.memory)
      problems.push(`${where}: needs cpu and memory requests and a memory limit`);

    if (w.kind === 'Job') {
      const cmd = [...(c.command ?? []), ...(c.args ?? [])];
      if (cmd.join(' ') !== 'node server/dist/cli.js migrate')
        problems.push(
          `${where}: the migrate Job must run \`node server/dist/cli.js migrate\`, runs \`${cmd.join(' ')}\``,
        );
      continue;
    }

    // A Deployment: its role, from TRACKER_ROLES (the image's CMD is main.js, which reads it).
    if (c.command || c.args) problems.push(`${where}: set the role with TRACKER_ROLES, not command/args`);
    const role = w.podLabels['app.kubernetes.io/component'];
    if (!config || config.roles.length !== 1 || config.roles[0] !== role)
      problems.push(
        `${where}: TRACKER_ROLES must be exactly its component label "${role}", is ${JSON.stringify(config?.roles)}`,
      );
    else if (roleOf.has(role)) problems.push(`${where}: a second Deployment for role ${role}`);
    else roleOf.set(role, w.name);

    // The dashboard without the api in its process needs the api Service's GraphQL URL.
    if (role === 'web') {
      const api = services.find((s) => s.doc.spec?.selector?.['app.kubernetes.io/component'] === 'api');
      const want = api && `http://${api.doc.metadata.name}:${api.doc.spec.ports?.[0]?.port}/graphql`;
      if (!config?.apiUrl || config.apiUrl !== want)
        problems.push(`${where}: TRACKER_API_URL must be the api Service's GraphQL (${want}), is ${config?.apiUrl}`);
    }

    const httpPort = (c.ports ?? []).find((p: Doc) => p.name === 'http');
    if (httpPort?.containerPort !== port) problems.push(`${where}: needs a port named http on ${port} (PORT)`);
    const probeAt = (probe: Doc | undefined, path: string, what: string) => {
      const g = probe?.httpGet;
      const onHttp = g?.port === 'http' || g?.port === port;
      if (!g || g.path !== path || !onHttp)
        problems.push(`${where}: ${what} must be GET ${path} on port ${port}, is ${JSON.stringify(g)}`);
    };
    probeAt(c.readinessProbe, '/readyz', 'readinessProbe');
    probeAt(c.livenessProbe, '/healthz', 'livenessProbe');

    // The graceful stop (preStop, then Tracker's own deadline + its 1.5 s backstop) fits the grace period.
    const preStop = (c.lifecycle?.preStop?.exec?.command ?? []).join(' ').match(/^sleep (\d+)$/);
    const needed = (preStop ? Number(preStop[1]) : 0) + Number(env.TRACKER_SHUTDOWN_TIMEOUT_MS ?? 8000) / 1000 + 1.5;
    const grace = w.podSpec.terminationGracePeriodSeconds ?? 30;
    if (grace < needed)
      problems.push(`${where}: terminationGracePeriodSeconds ${grace} < ${needed} s needed to stop cleanly`);
  }
  for (const role of tracker.roles) if (!roleOf.has(role)) problems.push(`no Deployment runs the ${role} role`);

  // Selectors: each Deployment selects its own pods; each Service and PDB selects exactly one Deployment's pods.
  for (const { file, doc } of deployments) {
    if (!matches(doc.spec?.selector?.matchLabels, doc.spec?.template?.metadata?.labels))
      problems.push(`${file}: Deployment ${doc.metadata?.name}: selector does not match its pod labels`);
  }
  const selected = (selector: Record<string, string> | undefined) =>
    deployments.filter((d) => matches(selector, d.doc.spec?.template?.metadata?.labels));
  for (const { file, doc } of services) {
    const hit = selected(doc.spec?.selector);
    if (hit.length !== 1)
      problems.push(`${file}: Service ${doc.metadata?.name} selects ${hit.length} Deployments' pods`);
    const portNames = (hit[0]?.doc.spec.template.spec.containers?.[0]?.ports ?? []).map((p: Doc) => p.name);
    for (const p of doc.spec?.ports ?? [])
      if (!portNames.includes(p.targetPort))
        problems.push(`${file}: Service ${doc.metadata?.name}: targetPort ${p.targetPort} is no container port`);
  }
  const pdbCovered = new Set<string>();
  for (const { file, doc } of byKind(docs, 'PodDisruptionBudget')) {
    const hit = selected(doc.spec?.selector?.matchLabels);
    if (hit.length !== 1)
      problems.push(`${file}: PodDisruptionBudget ${doc.metadata?.name} selects ${hit.length} Deployments' pods`);
    for (const d of hit) pdbCovered.add(d.doc.metadata.name);
  }
  for (const { doc } of deployments)
    if (!pdbCovered.has(doc.metadata?.name))
      problems.push(`Deployment ${doc.metadata?.name} has no PodDisruptionBudget`);

  // Autoscaling: ingest and worker, each on an existing Deployment that leaves replicas to it.
  const hpaTargets = new Map<string, Doc>();
  for (const { file, doc } of byKind(docs, 'HorizontalPodAutoscaler')) {
    const ref = doc.spec?.scaleTargetRef ?? {};
    const target = deployments.find((d) => d.doc.metadata?.name === ref.name);
    if (ref.kind !== 'Deployment' || ref.apiVersion !== 'apps/v1' || !target)
      problems.push(
        `${file}: HorizontalPodAutoscaler ${doc.metadata?.name} targets no Deployment here (${JSON.stringify(ref)})`,
      );
    else hpaTargets.set(target.doc.spec.template.metadata.labels['app.kubernetes.io/component'], target.doc);
  }
  for (const role of ['ingest', 'worker'])
    if (!hpaTargets.has(role)) problems.push(`no HorizontalPodAutoscaler for the ${role} role`);
  for (const [role, d] of hpaTargets)
    if (d.spec.replicas !== undefined)
      problems.push(`Deployment for ${role} sets replicas while an autoscaler owns them`);

  // The Ingress sends each kind of request to the role that serves it.
  const ingress = byKind(docs, 'Ingress')[0]?.doc;
  if (!ingress) problems.push('no Ingress');
  else {
    const serviceOf = (role: string) =>
      services.find((s) => s.doc.spec?.selector?.['app.kubernetes.io/component'] === role)?.doc.metadata.name;
    const expected: [string, string][] = [
      ['/ingest/error', 'ingest'],
      ['/ingest/release', 'ingest'],
      ['/api/42/envelope/', 'ingest'],
      ['/api/42/store/', 'ingest'],
      ['/graphql', 'api'],
      ['/billing/stripe/webhook', 'api'],
      ['/', 'web'],
      ['/projects/p/issues', 'web'],
      ['/login', 'web'],
    ];
    for (const [path, role] of expected) {
      const got = routeOf(ingress, path);
      if (!got || got !== serviceOf(role))
        problems.push(`Ingress: ${path} goes to ${got}, should go to the ${role} Service`);
    }
    for (const p of (ingress.spec?.rules ?? []).flatMap((r: Doc) => r.http?.paths ?? [])) {
      const svc = services.find((s) => s.doc.metadata?.name === p.backend?.service?.name);
      const portName = p.backend?.service?.port?.name;
      if (!svc || !(svc.doc.spec.ports ?? []).some((sp: Doc) => sp.name === portName))
        problems.push(`Ingress: ${p.path} points at ${p.backend?.service?.name}:${portName}, which does not exist`);
    }
  }

  // No credential written out anywhere but the example Secret (a user:password@ URL, say).
  for (const { file, doc } of docs) {
    if (doc.kind === 'Secret') continue;
    const text = JSON.stringify(doc);
    if (/[a-z]+:\/\/[^/"@\s]+:[^/"@\s]+@/i.test(text))
      problems.push(`${file}: ${doc.kind} ${doc.metadata?.name} contains a URL with credentials`);
  }
  return problems;
}

/** kustomization.yaml lists every manifest of base/ and nothing that is missing. */
export function kustomizationProblems(docs: LoadedDoc[]): string[] {
  const problems: string[] = [];
  const k = docs.find((d) => d.doc.kind === 'Kustomization');
  if (!k) return ['infra/k8s/base/kustomization.yaml is missing'];
  const listed: string[] = k.doc.resources ?? [];
  const present = readdirSync(BASE_DIR).filter((f) => /\.ya?ml$/.test(f) && f !== 'kustomization.yaml');
  for (const f of listed)
    if (!existsSync(join(BASE_DIR, f))) problems.push(`kustomization.yaml lists ${f}, which does not exist`);
  for (const f of present) if (!listed.includes(f)) problems.push(`kustomization.yaml does not list ${f}`);
  // An overlay sets the real image through `images:`; a container whose image it does not name would keep a placeholder.
  const imageNames = new Set((k.doc.images ?? []).map((i: Doc) => i.name));
  for (const w of workloads(docs))
    for (const c of w.podSpec.containers ?? [])
      if (!imageNames.has(c.image))
        problems.push(`${w.file}: ${w.kind} ${w.name}: image ${c.image} is not in kustomization.yaml's images`);
  return problems;
}
