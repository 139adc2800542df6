import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { AppEnv } from '../../platform/context.js';
import { credentialsOf } from '../../platform/credentials.js';
import type { Principal } from '../../platform/tokens.js';
import type { EnvironmentRecord, World } from '../../store/world.js';

/**
 * Who the console reads as. The domain functions of the API answer for a caller (an account and an
 * environment); the console reads as an unrestricted key of the environment it shows, so that it
 * sees exactly what such a key sees through the API.
 */
export function environmentPrincipal(accountid: string, envid: string): Principal {
  return { kind: 'api', clientid: 'console', accountid, envid, consumers: null, mcp: null };
}

/** The environment a page shows: `?env=` when it names one, else the seeded account's sandbox. */
export function chosenEnvironment(world: World, envid: string | undefined): EnvironmentRecord {
  const asked = envid ? world.environments[envid.toLowerCase()] : undefined;
  if (asked) return asked;
  const seeded = world.environments[credentialsOf(world.meta).sandboxEnvId];
  const first = seeded ?? Object.values(world.environments)[0];
  if (!first) throw new Error('The world holds no environment');
  return first;
}

/** An environment's label: its account's name and its own. */
export function environmentLabel(world: World, env: EnvironmentRecord): string {
  return `${world.accounts[env.accountid]?.name ?? env.accountid} / ${env.name} (${env.kind})`;
}

/** The notice or error a POST left in the query string of the page it redirected to. */
export function flash(c: Context<AppEnv>): { notice: string | undefined; error: string | undefined } {
  return { notice: c.req.query('notice'), error: c.req.query('error') };
}

/** The fields of a console form; a body that is not a readable form is the client's error (400). */
export async function formOf(c: Context<AppEnv>): Promise<Record<string, string | File>> {
  try {
    return await c.req.parseBody();
  } catch {
    throw new HTTPException(400, { message: 'The form could not be read' });
  }
}
