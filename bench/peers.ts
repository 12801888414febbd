import { existsSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../src/config/package-root';
import { selected, type Settings } from './context';

/**
 * The bench's peers: other gateways it measures beside this one. They are
 * not the gateway's dependencies, so `npm ci` does not install them;
 * `npm run bench:install` does, at pinned versions, without saving them
 * (package.json's `overrides` pin their own dependencies where needed).
 */
const INSTALL_COMMAND = 'npm run bench:install';

/** Portkey's open-source gateway (`@portkey-ai/gateway`), started by the portkey phase. */
export const PORTKEY_SERVER = path.join(packageRoot(), 'node_modules', '@portkey-ai', 'gateway', 'build', 'start-server.js');

interface Peer {
  phase: string;
  packageName: string;
  entry: string;
}

const PEERS: Peer[] = [{ phase: 'portkey', packageName: '@portkey-ai/gateway', entry: PORTKEY_SERVER }];

/** Why the selected phases cannot run (a peer they need is not installed), or undefined when they can. */
export function missingPeers(settings: Settings): string | undefined {
  const missing = PEERS.filter((peer) => selected(settings, peer.phase) && !existsSync(peer.entry));
  if (missing.length === 0) return undefined;
  const list = missing.map((peer) => `${peer.packageName} (phase ${peer.phase})`).join(', ');
  return `The bench's peers are not installed: ${list}. Run \`${INSTALL_COMMAND}\` once (after each \`npm ci\`), or leave the phase out with BENCH_PHASES.`;
}
