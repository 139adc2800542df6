import { isAbsolute, relative } from 'node:path';
import { PRIVATE_FILE, writeFileAtomic } from '../lib/file-writer.js';
import { own } from '../lib/own.js';
import { type Catalogue, loadCatalogue } from '../platform/catalogue.js';
import { credentialsOf } from '../platform/credentials.js';
import type { World } from '../store/world.js';
import { seedDirectory, VERTICAL_SHOWCASE } from './seeded-world.js';

/**
 * The dotenv lines of `unified-api-sandbox env`: the url and the seeded credentials, and for each
 * vertical, and for the Custom One API, a sandbox consumer of the world that has an active
 * connection of it (the seeded consumer while it still qualifies, else the first that does).
 */
export function sandboxEnv(world: World, baseUrl: string, catalogue: Catalogue = loadCatalogue()) {
  const seed = world.meta.seed;
  const creds = credentialsOf(world.meta);
  const directory = seedDirectory(seed);
  const lines: [string, string][] = [
    ['SANDBOX_BASE_URL', baseUrl],
    ['SANDBOX_ACCOUNT_ID', creds.accountId],
    ['SANDBOX_CLIENT_ID', creds.sandbox.clientId],
    ['SANDBOX_CLIENT_SECRET', creds.sandbox.clientSecret],
    ['SANDBOX_PRODUCTION_CLIENT_ID', creds.production.clientId],
    ['SANDBOX_PRODUCTION_CLIENT_SECRET', creds.production.clientSecret],
    ['SANDBOX_RESTRICTED_CLIENT_ID', creds.restricted.clientId],
    ['SANDBOX_RESTRICTED_CLIENT_SECRET', creds.restricted.clientSecret],
    ['SANDBOX_RESTRICTED_CONSUMER_ID', creds.restricted.consumerId],
  ];
  const activeApis = new Map<string, Set<string>>();
  for (const connection of Object.values(world.connections)) {
    if (connection.status !== 'active') continue;
    const api = catalogue.get(connection.integrationid)?.api;
    if (!api) continue;
    const set = activeApis.get(connection.consumerid) ?? new Set<string>();
    set.add(api);
    activeApis.set(connection.consumerid, set);
  }
  const qualifies = (consumerid: string, api: string) => {
    const consumer = own(world.consumers, consumerid);
    return consumer?.envid === creds.sandboxEnvId && activeApis.get(consumerid)?.has(api) === true;
  };
  for (const showcase of VERTICAL_SHOWCASE) {
    const preferred = directory.verticalConsumers[showcase.envName] ?? '';
    const id = qualifies(preferred, showcase.api)
      ? preferred
      : Object.keys(world.consumers).find((consumerid) => qualifies(consumerid, showcase.api));
    if (id) lines.push([`SANDBOX_CONSUMER_ID_${showcase.envName}`, id]);
  }
  // The consumer of a custom connector (the Custom One API), whose custom routes take any path.
  const custom = qualifies(directory.customConsumerId, 'Custom')
    ? directory.customConsumerId
    : Object.keys(world.consumers).find((consumerid) => qualifies(consumerid, 'Custom'));
  if (custom) lines.push(['SANDBOX_CONSUMER_ID_CUSTOM', custom]);
  lines.push(['SANDBOX_SYNC_ID', directory.syncId]);
  lines.push(['SANDBOX_SYNC_CONSUMER_ID', directory.syncConsumerId]);
  return lines;
}

export const formatDotenv = (lines: [string, string][]) => lines.map(([k, v]) => `${k}=${v}`).join('\n');

/**
 * Writes the dotenv lines to `path` whole or not at all, through the one writer (lib/file-writer.ts):
 * a reader never sees half a file, the file's appearance means it is complete, and a link at `path`
 * is replaced, never written through. Readable by its owner only: the lines hold the seeded keys.
 */
export async function writeEnvFile(path: string, lines: [string, string][]): Promise<void> {
  await writeFileAtomic(path, `${formatDotenv(lines)}\n`, PRIVATE_FILE);
}

/** A word for a POSIX shell: as it is when it needs no quoting, else in single quotes. */
const shellWord = (word: string) =>
  /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;

/**
 * The command that runs `env` the way this process was started, so that the banner names one that
 * works: `npx unified-api-sandbox` from a project that depends on the package (the script lies in a
 * node_modules folder), the bare name when it was run from the PATH (a global install), else (a
 * clone) node and the script itself, relative to the working folder when it lies under it, with tsx
 * for the TypeScript source. `flags` follow `env`.
 */
export function envCommandLine(script: string, cwd: string, flags: readonly string[]): string {
  const segments = script.split(/[\\/]/);
  let runner: string;
  if (segments.includes('node_modules')) runner = 'npx unified-api-sandbox';
  else if (segments.at(-1) === 'unified-api-sandbox') runner = 'unified-api-sandbox';
  else {
    const under = relative(cwd, script);
    const shown = under && !under.startsWith('..') && !isAbsolute(under) ? under : script;
    runner = `node ${script.endsWith('.ts') ? '--import tsx ' : ''}${shellWord(shown)}`;
  }
  return [runner, 'env', ...flags.map(shellWord)].join(' ');
}
