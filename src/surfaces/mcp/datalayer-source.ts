import type { Catalogue } from '../../platform/catalogue.js';
import { activeConnectionOf, oneApiOfArea } from '../../platform/transactions.js';
import type { AnyVerticalModule } from '../../platform/vertical-module.js';
import type { World } from '../../store/world.js';

/**
 * Where a read of a vertical comes from, as the MCP server tells an agent in the result's `_meta`:
 * the connection the operation used (the consumer's active connection of the path's One API, chosen
 * by the rule the service applies) and, when that connection's datalayer sync is enabled, the
 * datalayer and its last successful run. The sandbox keeps one copy of each connection's records, so
 * both sources answer the same records: see docs/mcp.md.
 */
export interface ReadSource {
  source: 'datalayer' | 'connection';
  connection_id: string;
  /** The end of the last successful datalayer run (null: none yet); only for the datalayer. */
  last_sync_at?: string | null;
  next_sync_at?: string | null;
}

/** The source of a consumer-scoped read at `path` (a template or a filled path), if it is a vertical's. */
export function readSource(
  world: World,
  catalogue: Catalogue,
  verticals: readonly AnyVerticalModule[],
  consumerId: string,
  path: string,
): ReadSource | null {
  // /consumers/{consumer_id}/<area>/...
  const area = path.split('/')[3] ?? '';
  const api = oneApiOfArea(verticals, area);
  if (!api) return null;
  const connection = activeConnectionOf(world, consumerId, api, (id) => catalogue.get(id)?.api);
  if (!connection) return null;
  const datalayer = world.datalayer_syncs[connection.connectionid];
  if (!datalayer?.enabled) return { source: 'connection', connection_id: connection.connectionid };
  return {
    source: 'datalayer',
    connection_id: connection.connectionid,
    last_sync_at: datalayer.last_refresh_at,
    next_sync_at: datalayer.next_run_at,
  };
}
