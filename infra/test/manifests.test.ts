import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { loadConfig, ROLES } from '@tracker/core';
import {
  envVarsTrackerReads,
  kustomizationProblems,
  loadManifests,
  REPO,
  schemaProblems,
  semanticProblems,
  type LoadedDoc,
} from './manifests';
import { unknownFieldProblems } from './unknown-fields';

const tracker = { roles: ROLES, envVars: envVarsTrackerReads(), loadConfig };
const loaded = loadManifests();
const copy = (): LoadedDoc[] => structuredClone(loaded.docs);
const find = (docs: LoadedDoc[], kind: string, name: string) => docs.find((d) => d.doc.kind === kind && d.doc.metadata?.name === name)!.doc;

describe('Kubernetes manifests (infra/k8s)', () => {
  test('every file parses as YAML and kustomization.yaml lists every manifest', () => {
    assert.deepEqual(loaded.problems, []);
    const kinds: Record<string, number> = {};
    for (const { doc } of loaded.docs) kinds[doc.kind] = (kinds[doc.kind] ?? 0) + 1;
    assert.deepEqual(kinds, {
      Kustomization: 1,
      ConfigMap: 1,
      Secret: 1, // the example, outside base/
      Job: 1,
      Deployment: 4,
      Service: 4,
      PodDisruptionBudget: 4,
      HorizontalPodAutoscaler: 2,
      Ingress: 1,
    });
    assert.deepEqual(kustomizationProblems(loaded.docs), []);
  });

  test('every object is valid against the Kubernetes 1.36 schema, on a GA API', async () => {
    assert.deepEqual(await schemaProblems(loaded.docs), []);
  });

  test('no object has a field its Kubernetes type does not declare (a misspelt field)', () => {
    assert.deepEqual(unknownFieldProblems(loaded.docs), []);
  });

  test("the variables Tracker reads are found in core's config (the list the next test checks against)", () => {
    for (const v of ['DATABASE_URL', 'REDIS_URL', 'PORT', 'TRACKER_ROLES', 'TRACKER_API_URL', 'TRACKER_SESSION_SECRET'])
      assert.ok(tracker.envVars.has(v), v);
    assert.ok(!tracker.envVars.has('TRACKER_NO_SUCH_VARIABLE'));
  });

  test('roles, probes, secrets, selectors, autoscalers, disruption budgets, the Job and the Ingress fit together', () => {
    assert.deepEqual(semanticProblems(loaded.docs, tracker), []);
  });

  // The checks above pass on the real manifests; each mutation below must be caught, or the
  // check that should catch it is not doing its job.
  describe('a broken manifest is refused', () => {
    const cases: [string, (docs: LoadedDoc[]) => void, RegExp][] = [
      [
        'readiness on /healthz',
        (d) => (find(d, 'Deployment', 'tracker-ingest').spec.template.spec.containers[0].readinessProbe.httpGet.path = '/healthz'),
        /tracker-ingest: readinessProbe must be GET \/readyz/,
      ],
      [
        'liveness on another port',
        (d) => (find(d, 'Deployment', 'tracker-api').spec.template.spec.containers[0].livenessProbe.httpGet.port = 8080),
        /tracker-api: livenessProbe must be GET \/healthz on port 3000/,
      ],
      [
        'a literal DATABASE_URL',
        (d) => {
          const env = find(d, 'Deployment', 'tracker-worker').spec.template.spec.containers[0].env;
          env.find((e: any) => e.name === 'DATABASE_URL').valueFrom = undefined;
          env.find((e: any) => e.name === 'DATABASE_URL').value = 'postgres://tracker:hunter2@db:5432/tracker';
        },
        /DATABASE_URL must come from a Secret/,
      ],
      [
        'a variable Tracker does not read',
        (d) => (find(d, 'ConfigMap', 'tracker').data.TRACKER_WORKER_BATCH = '500'),
        /TRACKER_WORKER_BATCH is not a variable Tracker reads/,
      ],
      [
        'a value Tracker refuses',
        (d) => (find(d, 'ConfigMap', 'tracker').data.TRACKER_LOG_LEVEL = 'verbose'),
        /Tracker refuses this environment: .*TRACKER_LOG_LEVEL/s,
      ],
      [
        'a Secret key the Secret lacks',
        (d) =>
          (find(d, 'Deployment', 'tracker-web').spec.template.spec.containers[0].env.find(
            (e: any) => e.name === 'TRACKER_SESSION_SECRET',
          ).valueFrom.secretKeyRef.key = 'SESSION_SECRET'),
        /reads key SESSION_SECRET of Secret tracker/,
      ],
      [
        'a Deployment with the wrong role',
        (d) => (find(d, 'Deployment', 'tracker-worker').spec.template.spec.containers[0].env[0].value = 'ingest'),
        /no Deployment runs the worker role/,
      ],
      [
        'an autoscaler on a missing Deployment',
        (d) => (find(d, 'HorizontalPodAutoscaler', 'tracker-worker').spec.scaleTargetRef.name = 'tracker-workers'),
        /targets no Deployment here[\s\S]*no HorizontalPodAutoscaler for the worker role/,
      ],
      [
        'replicas beside an autoscaler',
        (d) => (find(d, 'Deployment', 'tracker-ingest').spec.replicas = 3),
        /Deployment for ingest sets replicas while an autoscaler owns them/,
      ],
      [
        'a disruption budget that selects nothing',
        (d) => (find(d, 'PodDisruptionBudget', 'tracker-api').spec.selector.matchLabels['app.kubernetes.io/component'] = 'graphql'),
        /PodDisruptionBudget tracker-api selects 0[\s\S]*Deployment tracker-api has no PodDisruptionBudget/,
      ],
      [
        'the migrate Job running something else',
        (d) => (find(d, 'Job', 'tracker-migrate').spec.template.spec.containers[0].command = ['node', 'server/dist/main.js']),
        /the migrate Job must run `node server\/dist\/cli.js migrate`/,
      ],
      [
        'the Ingress sending GraphQL to the web pods',
        (d) => (find(d, 'Ingress', 'tracker').spec.rules[0].http.paths.find((p: any) => p.path === '/graphql').backend.service.name = 'tracker-web'),
        /Ingress: \/graphql goes to tracker-web, should go to the api Service/,
      ],
      [
        'a writable root file system',
        (d) => (find(d, 'Deployment', 'tracker-web').spec.template.spec.containers[0].securityContext.readOnlyRootFilesystem = false),
        /tracker-web: readOnlyRootFilesystem must be true/,
      ],
      [
        'a grace period shorter than the graceful stop',
        (d) => (find(d, 'Deployment', 'tracker-ingest').spec.template.spec.terminationGracePeriodSeconds = 10),
        /terminationGracePeriodSeconds 10 < 14.5 s/,
      ],
    ];
    for (const [name, mutate, expected] of cases) {
      test(name, () => {
        const docs = copy();
        mutate(docs);
        const problems = semanticProblems(docs, tracker).join('\n');
        assert.match(problems, expected);
      });
    }

    test('a container image the kustomization does not set', () => {
      const docs = copy();
      find(docs, 'Job', 'tracker-migrate').spec.template.spec.containers[0].image = 'tracker-server';
      assert.match(kustomizationProblems(docs).join('\n'), /Job tracker-migrate: image tracker-server is not in kustomization.yaml's images/);
    });

    test('misspelt fields', () => {
      const docs = copy();
      const pod = find(docs, 'Deployment', 'tracker-web').spec.template.spec;
      pod.securityContext.runAsNonroot = true;
      pod.containers[0].readinesProbe = pod.containers[0].readinessProbe;
      find(docs, 'Ingress', 'tracker').spec.rules[0].http.paths[0].backend.service.port.nmae = 'http';
      const problems = unknownFieldProblems(docs).join('\n');
      assert.match(problems, /tracker-web: Deployment\.spec\.template\.spec\.securityContext\.runAsNonroot is not a field of/);
      assert.match(problems, /tracker-web: Deployment\.spec\.template\.spec\.containers\[0\]\.readinesProbe is not a field of/);
      assert.match(problems, /Ingress tracker: Ingress\.spec\.rules\[0\]\.http\.paths\[0\]\.backend\.service\.port\.nmae is not a field of/);
      // Maps take any key: a new label or ConfigMap entry is not a misspelt field.
      find(docs, 'ConfigMap', 'tracker').data.ANY_KEY = 'x';
      find(docs, 'Service', 'tracker-api').metadata.labels['example.com/team'] = 'x';
      assert.equal(unknownFieldProblems(docs).length, 3);
    });

    test('a field of the wrong type, a missing required field, a removed API', async () => {
      const docs = copy();
      find(docs, 'Deployment', 'tracker-ingest').spec.template.spec.containers[0].ports[0].containerPort = 'http';
      delete find(docs, 'Service', 'tracker-api').spec.ports[0].port;
      find(docs, 'PodDisruptionBudget', 'tracker-web').apiVersion = 'policy/v1beta1';
      const problems = (await schemaProblems(docs)).join('\n');
      assert.match(problems, /tracker-ingest: .*containerPort must be integer/);
      assert.match(problems, /tracker-api: .*must have required property port/);
      assert.match(problems, /policy\/v1beta1\/PodDisruptionBudget is not an API this deployment allows/);
    });
  });
});

describe('Dockerfile (infra/Dockerfile; not built here: no registry to pull node:20 from)', () => {
  const dockerfile = readFileSync(join(REPO, 'infra', 'Dockerfile'), 'utf8');
  test('runs as a non-root user and starts server/dist/main.js, which the server build writes', () => {
    const cmd = dockerfile.match(/^CMD (\[.*\])$/m);
    assert.ok(cmd, 'no exec-form CMD');
    assert.deepEqual(JSON.parse(cmd[1]), ['node', 'server/dist/main.js']);
    assert.match(dockerfile, /^USER node$/m);
    // server/tsconfig.build.json compiles src/ into dist/: main.ts → dist/main.js, cli.ts → dist/cli.js (the Job).
    const build = JSON.parse(readFileSync(join(REPO, 'server', 'tsconfig.build.json'), 'utf8'));
    assert.equal(build.compilerOptions.rootDir, 'src');
    assert.equal(build.compilerOptions.outDir, 'dist');
    assert.ok(existsSync(join(REPO, 'server', 'src', 'main.ts')));
    assert.ok(existsSync(join(REPO, 'server', 'src', 'cli.ts')));
  });
});
