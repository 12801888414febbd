import { readFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';

const root = path.join(__dirname, '..', '..');

export interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile?: string; args?: Record<string, string> };
  command?: string | string[];
  entrypoint?: string | string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[]; interval?: string; timeout?: string; start_period?: string; retries?: number; disable?: boolean };
  restart?: string;
  stop_grace_period?: string;
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

/** docker-compose.yml as written, before interpolation. */
export const composeText = readFileSync(path.join(root, 'docker-compose.yml'), 'utf8');

/** docker-compose.yml parsed, its `${VARIABLE}`s as written. */
export const compose = YAML.parse(composeText) as ComposeFile;

/** `.env.example`: every `NAME=value` line, comments left out. */
export const envExample: Record<string, string> = Object.fromEntries(
  readFileSync(path.join(root, '.env.example'), 'utf8')
    .split('\n')
    .map((line) => /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => [m[1], m[2]]),
);

/** The secrets .env.example leaves empty, filled as an operator would. */
export const sampleSecrets = {
  GATEWAY_ADMIN_TOKEN: 'c0ffee00c0ffee00c0ffee00c0ffee00',
  POSTGRES_PASSWORD: '5ca1ab1e5ca1ab1e',
  MINIO_ROOT_PASSWORD: 'b0a710adb0a710ad',
};

/** Every string of the parsed compose file (keys too): what compose interpolates. */
export function composeStrings(node: unknown = compose): string[] {
  if (typeof node === 'string') return [node];
  if (Array.isArray(node)) return node.flatMap((item) => composeStrings(item));
  if (node && typeof node === 'object') return Object.entries(node).flatMap(([key, value]) => [key, ...composeStrings(value)]);
  return [];
}

/** The names of the `${VARIABLE}`s the compose file reads from .env (`$${…}` is left to a container's shell). */
export function variablesRead(): string[] {
  const names = composeStrings().flatMap((text) => [...text.replace(/\$\$/g, '').matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]));
  return [...new Set(names)].sort();
}

/**
 * Compose's interpolation of one value: `${NAME}`, `${NAME:-default}`,
 * `${NAME-default}`, `${NAME:?message}`, `${NAME?message}`, and `$$` for a
 * literal `$`.
 */
export function interpolate(value: string, vars: Record<string, string>): string {
  return value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g, (match, name: string, op: string | undefined, arg: string) => {
    if (match === '$$') return '$';
    const value = vars[name];
    const missing = op?.startsWith(':') ? !value : value === undefined;
    if (op?.endsWith('?') && missing) throw new Error(`${name} is required: ${arg}`);
    if (op?.endsWith('-') && missing) return arg;
    return value ?? '';
  });
}

/** A service's environment as its container gets it, with .env being .env.example and the secrets filled. */
export function resolvedEnvironment(service: string, vars: Record<string, string> = { ...envExample, ...sampleSecrets }): Record<string, string> {
  const environment = compose.services[service].environment ?? {};
  return Object.fromEntries(Object.entries(environment).map(([name, value]) => [name, interpolate(String(value), vars)]));
}

/** The Dockerfile's instructions of one kind (`ENV`, `HEALTHCHECK`, ...), continuation lines joined. */
export function dockerfileInstructions(kind: string): string[] {
  const text = readFileSync(path.join(root, 'Dockerfile'), 'utf8').replace(/\\\n\s*/g, '');
  return text.split('\n').filter((line) => line.startsWith(`${kind} `)).map((line) => line.slice(kind.length + 1).trim());
}

/** The runtime stage's `ENV` settings. */
export function dockerfileEnv(): Record<string, string> {
  return Object.fromEntries(dockerfileInstructions('ENV').flatMap((line) => line.split(/\s+/).map((pair) => pair.split('=') as [string, string])));
}
