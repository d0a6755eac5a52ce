import { readWorkerCount } from '../cluster/read-worker-count.js';
import { readObservabilityEnvironment, type ObservabilityEnvironment } from './observability-environment.js';
import {
  defaultSettings,
  environmentVariableFor,
  settingNames,
  settingsSchema,
  type Settings,
} from './settings-schema.js';

/** Process configuration read once at start. Every variable is listed in the README. */
export interface Environment {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** PostgreSQL schema for the gateway's tables; the connection's default when unset. */
  databaseSchema: string | undefined;
  redisUrl: string | undefined;
  adminToken: string | undefined;
  logLevel: string;
  /** How long open requests may take to finish on SIGTERM (`GATEWAY_SHUTDOWN_GRACE_S`). */
  shutdownGraceMs: number;
  /** How long this process's hold lease lasts without renewal (`GATEWAY_LEASE_TTL_S`). */
  leaseTtlMs: number;
  /** Server processes on this machine (`GATEWAY_WORKERS`, `auto` = one per core); 1 runs no cluster. */
  workers: number;
  /** Settings given through `GATEWAY_<NAME>` variables; stored settings changed through the API win over them. */
  settings: Partial<Settings>;
  /** Log format, metrics access, tracing, shutdown drain. */
  observability: ObservabilityEnvironment;
  /** The configuration file applied at start (`GATEWAY_CONFIG_FILE`, admin-api section 13). */
  configFile: string | undefined;
}

export function readEnvironment(env: NodeJS.ProcessEnv = process.env): Environment {
  return {
    port: parsePort(env.PORT),
    host: env.HOST || '0.0.0.0',
    dataDir: env.GATEWAY_DATA_DIR || './data',
    databaseUrl: env.DATABASE_URL || undefined,
    databaseSchema: env.DATABASE_SCHEMA || undefined,
    redisUrl: env.REDIS_URL || undefined,
    adminToken: env.GATEWAY_ADMIN_TOKEN || undefined,
    logLevel: env.GATEWAY_LOG_LEVEL || 'info',
    shutdownGraceMs: parseSeconds(env.GATEWAY_SHUTDOWN_GRACE_S, 30, 'GATEWAY_SHUTDOWN_GRACE_S') * 1000,
    leaseTtlMs: parseSeconds(env.GATEWAY_LEASE_TTL_S, 30, 'GATEWAY_LEASE_TTL_S') * 1000,
    workers: readWorkerCount(env.GATEWAY_WORKERS),
    settings: readSettingVariables(env),
    observability: readObservabilityEnvironment(env),
    configFile: env.GATEWAY_CONFIG_FILE || undefined,
  };
}

function parseSeconds(value: string | undefined, fallback: number, name: string): number {
  if (!value) return fallback;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds < 0)
    throw new Error(`${name} must be a number of seconds, got "${value}"`);
  return seconds;
}

function parsePort(value: string | undefined): number {
  if (!value) return 3000;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`PORT must be a port number, got "${value}"`);
  return port;
}

function readSettingVariables(env: NodeJS.ProcessEnv): Partial<Settings> {
  const given: Record<string, unknown> = {};
  for (const name of settingNames) {
    const variable = environmentVariableFor(name);
    const raw = env[variable];
    if (raw === undefined || raw === '') continue;
    given[name] = coerce(raw, defaultSettings[name]);
  }
  const parsed = settingsSchema.partial().safeParse(given);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? '');
    throw new Error(`${environmentVariableFor(name as keyof Settings)} is invalid: ${issue?.message}`);
  }
  return parsed.data;
}

function coerce(raw: string, example: unknown): unknown {
  if (typeof example === 'number') return Number(raw);
  if (typeof example === 'boolean')
    return raw === 'true' || raw === '1' ? true : raw === 'false' || raw === '0' ? false : raw;
  if (Array.isArray(example))
    return raw
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
  return raw;
}
