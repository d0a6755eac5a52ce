import { execFile } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { parseConfigText } from '../../src/config-file/read-config-file.js';

/**
 * The packaging in deploy/ and the Dockerfile: no container engine or cluster runs here, so these
 * read the files (and kustomize's rendering) and check what the gateway needs of them (README,
 * Run it on many machines; Operations: health checks and draining).
 */
const REPOSITORY_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const OVERLAY = 'deploy/kubernetes/overlays/example';

function readRepositoryFile(relative: string): string {
  return readFileSync(path.join(REPOSITORY_ROOT, relative), 'utf8');
}

function isOnPath(command: string): boolean {
  return (process.env.PATH ?? '').split(path.delimiter).some((directory) => {
    try {
      accessSync(path.join(directory, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

interface Probe {
  httpGet?: { path: string; port: string | number };
}

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}

interface Container {
  name: string;
  image: string;
  ports?: { name?: string; containerPort: number }[];
  env?: EnvVar[];
  envFrom?: { secretRef?: { name: string } }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
  securityContext?: {
    runAsNonRoot?: boolean;
    readOnlyRootFilesystem?: boolean;
    allowPrivilegeEscalation?: boolean;
  };
}

interface Volume {
  name: string;
  configMap?: { name: string };
  emptyDir?: object;
}

interface Resource {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  data?: Record<string, string>;
  spec?: {
    replicas?: number;
    minAvailable?: number | string;
    selector?: Record<string, string> | { matchLabels?: Record<string, string> };
    ports?: { name?: string; port: number; targetPort: string | number }[];
    template?: {
      metadata: { labels: Record<string, string> };
      spec: {
        terminationGracePeriodSeconds?: number;
        securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
        containers: Container[];
        volumes?: Volume[];
      };
    };
  };
}

/**
 * A configuration file as the gateway reads it (admin-api section 13), every `${NAME}` it names
 * set: each entry is checked by the management API's own schemas, so the examples keep its names.
 */
function expectValidConfigFile(text: string): void {
  const environment = Object.fromEntries(environmentReferences(text).map((name) => [name, `${name}-value`]));
  const reading = parseConfigText(text, environment);
  expect(reading.ok ? [] : reading.errors).toEqual([]);
}

/** The `${NAME}` references in a configuration file's values (its comments left out). */
function environmentReferences(text: string): string[] {
  const values = JSON.stringify(parse(text));
  return [...new Set([...values.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((match) => match[1]!))];
}

describe.skipIf(!isOnPath('kubectl'))('kubectl kustomize deploy/kubernetes/overlays/example', () => {
  let resources: Resource[] = [];
  const find = (kind: string): Resource => {
    const found = resources.filter((resource) => resource.kind === kind);
    expect(found, kind).toHaveLength(1);
    return found[0]!;
  };
  const gatewayContainer = (): Container => {
    const containers = find('Deployment').spec!.template!.spec.containers;
    expect(containers).toHaveLength(1);
    return containers[0]!;
  };
  const environment = (): Map<string, EnvVar> =>
    new Map((gatewayContainer().env ?? []).map((variable) => [variable.name, variable]));

  beforeAll(async () => {
    // Rendering is local: kustomize reads the files and never contacts a cluster.
    const { stdout } = await promisify(execFile)('kubectl', ['kustomize', OVERLAY], {
      cwd: REPOSITORY_ROOT,
      env: { ...process.env, KUBECONFIG: '/dev/null' },
    });
    resources = parseAllDocuments(stdout).map((document) => {
      expect(document.errors).toEqual([]);
      return document.toJS() as Resource;
    });
  });

  it('renders a ConfigMap, a Service, a Deployment and a PodDisruptionBudget in the overlay namespace', () => {
    expect(resources.map((resource) => resource.kind).sort()).toEqual([
      'ConfigMap',
      'Deployment',
      'PodDisruptionBudget',
      'Service',
    ]);
    for (const resource of resources) expect(resource.metadata.namespace).toBe('model-gateway');
  });

  it('applies the overlay image and replica count', () => {
    const deployment = find('Deployment');
    expect(gatewayContainer().image).toBe('registry.example.com/model-gateway:0.1.0');
    expect(deployment.spec!.replicas).toBe(3);
  });

  it('serves on container port 3000, named http, probed on /readyz and /healthz', () => {
    const container = gatewayContainer();
    expect(container.ports).toContainEqual(expect.objectContaining({ name: 'http', containerPort: 3000 }));
    expect(container.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(container.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
  });

  it('gives a stopping pod longer than the preStop sleep, the drain and the grace period', () => {
    const command = gatewayContainer().lifecycle?.preStop?.exec?.command ?? [];
    expect(command[0]).toBe('sleep');
    const preStopSeconds = Number(command[1]);
    const drainSeconds = Number(environment().get('GATEWAY_SHUTDOWN_DRAIN_S')?.value);
    // Unset, the gateway's default: 30 seconds.
    const graceSeconds = Number(environment().get('GATEWAY_SHUTDOWN_GRACE_S')?.value ?? 30);
    expect(preStopSeconds).toBeGreaterThan(0);
    expect(drainSeconds).toBeGreaterThan(0);
    const period = find('Deployment').spec!.template!.spec.terminationGracePeriodSeconds;
    expect(period).toBeGreaterThan(preStopSeconds + drainSeconds + graceSeconds);
  });

  it('takes DATABASE_URL, REDIS_URL and GATEWAY_ADMIN_TOKEN from the Secret by name, holding no secret', () => {
    for (const name of ['DATABASE_URL', 'REDIS_URL', 'GATEWAY_ADMIN_TOKEN']) {
      const variable = environment().get(name);
      expect(variable?.value, name).toBeUndefined();
      expect(variable?.valueFrom?.secretKeyRef, name).toEqual({ name: 'model-gateway', key: name });
    }
    expect(gatewayContainer().envFrom).toContainEqual({ secretRef: { name: 'model-gateway' } });
    expect(resources.some((resource) => resource.kind === 'Secret')).toBe(false);
  });

  it('mounts the generated ConfigMap and points GATEWAY_CONFIG_FILE at its gateway.yaml', () => {
    const configMap = find('ConfigMap');
    // configMapGenerator's hash suffix: a changed file is a new name, so the pods roll.
    expect(configMap.metadata.name).toMatch(/^model-gateway-config-[a-z0-9]{10}$/);
    expect(configMap.data?.['gateway.yaml']).toBe(readRepositoryFile(`${OVERLAY}/gateway.yaml`));

    const volume = find('Deployment').spec!.template!.spec.volumes?.find(
      (each) => each.configMap?.name === configMap.metadata.name,
    );
    expect(volume).toBeDefined();
    const mount = gatewayContainer().volumeMounts?.find((each) => each.name === volume!.name);
    expect(mount?.readOnly).toBe(true);
    expect(environment().get('GATEWAY_CONFIG_FILE')?.value).toBe(
      path.posix.join(mount!.mountPath, 'gateway.yaml'),
    );
  });

  it('holds a gateway.yaml with the management API field names', () => {
    expectValidConfigFile(find('ConfigMap').data!['gateway.yaml']!);
    expectValidConfigFile(readRepositoryFile('deploy/kubernetes/base/gateway.yaml'));
  });

  it('routes the Service to the http port of the Deployment pods', () => {
    const service = find('Service');
    const podLabels = find('Deployment').spec!.template!.metadata.labels;
    expect(service.spec!.ports).toContainEqual(expect.objectContaining({ port: 80, targetPort: 'http' }));
    expect(Object.entries(service.spec!.selector as Record<string, string>)).toEqual(
      expect.arrayContaining(Object.entries(podLabels)),
    );
    expect(Object.keys(service.spec!.selector as Record<string, string>).length).toBeGreaterThan(0);
  });

  it('keeps one pod through voluntary disruptions', () => {
    const budget = find('PodDisruptionBudget');
    const podLabels = find('Deployment').spec!.template!.metadata.labels;
    const matchLabels = (budget.spec!.selector as { matchLabels?: Record<string, string> }).matchLabels ?? {};
    expect(budget.spec!.minAvailable).toBe(1);
    expect(Object.keys(matchLabels).length).toBeGreaterThan(0);
    for (const [label, value] of Object.entries(matchLabels)) expect(podLabels[label], label).toBe(value);
  });

  it('runs as a non-root user on a read-only root file system, with a writable /data', () => {
    const pod = find('Deployment').spec!.template!.spec;
    const container = gatewayContainer();
    expect(pod.securityContext?.runAsNonRoot).toBe(true);
    expect(pod.securityContext?.runAsUser).toBeGreaterThan(0);
    expect(container.securityContext?.readOnlyRootFilesystem).toBe(true);
    expect(container.securityContext?.allowPrivilegeEscalation).toBe(false);
    const data = container.volumeMounts?.find((mount) => mount.mountPath === '/data');
    expect(pod.volumes?.find((volume) => volume.name === data?.name)?.emptyDir).toBeDefined();
  });
});

interface DockerInstruction {
  keyword: string;
  arguments: string;
}

/** The Dockerfile's instructions: comments dropped, continued lines joined, heredoc bodies skipped. */
function readDockerfile(text: string): DockerInstruction[] {
  const instructions: DockerInstruction[] = [];
  const lines = text.split('\n');
  let pending = '';
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!.trim();
    if (pending === '' && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    const whole = pending + line;
    pending = '';
    const heredoc = /<<-?['"]?(\w+)['"]?/.exec(whole);
    if (heredoc) while (index + 1 < lines.length && lines[++index]!.trim() !== heredoc[1]);
    const [keyword = '', ...rest] = whole.split(/\s+/);
    instructions.push({ keyword: keyword.toUpperCase(), arguments: rest.join(' ') });
  }
  return instructions;
}

/** The instructions of each stage, by its name (or index), in order. */
function dockerStages(
  instructions: DockerInstruction[],
): { from: string; name: string; body: DockerInstruction[] }[] {
  const stages: { from: string; name: string; body: DockerInstruction[] }[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const [from = '', , name] = instruction.arguments.split(/\s+/);
      stages.push({ from, name: name ?? String(stages.length), body: [] });
    } else stages.at(-1)?.body.push(instruction);
  }
  return stages;
}

describe('Dockerfile', () => {
  const stages = dockerStages(readDockerfile(readRepositoryFile('Dockerfile')));
  const last = stages.at(-1)!;
  const baseImageOf = (name: string): string => {
    const stage = stages.find((each) => each.name === name);
    return stage ? baseImageOf(stage.from) : name;
  };

  it('builds on node:20-bookworm-slim, the native modules compiled on the image they run on', () => {
    expect(baseImageOf(last.name)).toBe('node:20-bookworm-slim');
    const copiedFrom = last.body
      .filter((instruction) => instruction.keyword === 'COPY')
      .map((instruction) => /--from=(\S+)/.exec(instruction.arguments)?.[1])
      .filter((stage) => stage !== undefined);
    for (const stage of copiedFrom) expect(baseImageOf(stage), stage).toBe('node:20-bookworm-slim');
  });

  it('puts dist, console/dist, node_modules and package.json where dist/main.js looks for them', () => {
    const workdir = stages
      .flatMap((stage) => stage.body)
      .findLast((instruction) => instruction.keyword === 'WORKDIR');
    expect(workdir?.arguments).toBe('/app');
    const destinations = last.body
      .filter((instruction) => instruction.keyword === 'COPY')
      .map((instruction) => instruction.arguments.split(/\s+/).at(-1));
    // src/http/console/console-directory.ts: dist/http/console/ + ../../../console/dist/.
    expect(destinations).toEqual(
      expect.arrayContaining(['./dist', './console/dist', './node_modules', './package.json']),
    );
  });

  it('runs node dist/main.js in exec form as a non-root user', () => {
    const user = last.body.findLast((instruction) => instruction.keyword === 'USER');
    expect(user?.arguments).toBeDefined();
    expect(['root', '0']).not.toContain(user!.arguments.split(':')[0]);
    const command = last.body.findLast((instruction) => instruction.keyword === 'CMD');
    expect(JSON.parse(command!.arguments)).toEqual(['node', 'dist/main.js']);
  });

  it('keeps SQLite in /data and checks /healthz', () => {
    const environment = last.body
      .filter((instruction) => instruction.keyword === 'ENV')
      .flatMap((instruction) => instruction.arguments.split(/\s+/));
    expect(environment).toContain('GATEWAY_DATA_DIR=/data');
    expect(last.body).toContainEqual({ keyword: 'VOLUME', arguments: '/data' });
    const healthcheck = last.body.find((instruction) => instruction.keyword === 'HEALTHCHECK');
    expect(healthcheck?.arguments).toMatch(/CMD \["node", "-e", ".*\/healthz.*"\]$/);
  });
});

interface ComposeService {
  image?: string;
  deploy?: { replicas?: number };
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition?: string }>;
  healthcheck?: { test?: string[] };
  stop_grace_period?: string;
}

describe('deploy/compose.yaml', () => {
  const compose = parse(readRepositoryFile('deploy/compose.yaml')) as {
    services: Record<string, ComposeService>;
  };
  const gateway = compose.services.gateway!;

  it('runs two gateway replicas after PostgreSQL and Redis pass their health checks', () => {
    expect(gateway.deploy?.replicas).toBe(2);
    expect(gateway.depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
    });
    expect(compose.services.postgres?.healthcheck?.test).toContain('pg_isready');
    expect(compose.services.redis?.healthcheck?.test).toEqual(['CMD', 'redis-cli', 'ping']);
    expect(gateway.environment?.DATABASE_URL).toMatch(/^postgres:\/\/.*@postgres:5432\//);
    expect(gateway.environment?.REDIS_URL).toBe('redis://redis:6379');
  });

  it('mounts gateway.yaml read-only where GATEWAY_CONFIG_FILE points', () => {
    const target = gateway.environment?.GATEWAY_CONFIG_FILE;
    expect(target).toBe('/etc/model-gateway/gateway.yaml');
    expect(gateway.volumes).toContain(`./gateway.yaml:${target}:ro`);
  });

  it('gives a stopping replica longer than the gateway grace period (30 s)', () => {
    expect(Number(/^(\d+)s$/.exec(gateway.stop_grace_period ?? '')?.[1])).toBeGreaterThan(30);
  });

  it('passes every variable gateway.yaml names, from .env', () => {
    const file = readRepositoryFile('deploy/gateway.yaml');
    expectValidConfigFile(file);
    const example = readRepositoryFile('deploy/.env.example');
    const references = environmentReferences(file);
    expect(references.length).toBeGreaterThan(0);
    for (const name of references) {
      expect(gateway.environment?.[name], name).toBe(`\${${name}:?set ${name} in .env}`);
      expect(example, name).toMatch(new RegExp(`^${name}=`, 'm'));
    }
    for (const name of ['GATEWAY_ADMIN_TOKEN', 'POSTGRES_PASSWORD'])
      expect(example, name).toMatch(new RegExp(`^${name}=$`, 'm'));
  });
});
