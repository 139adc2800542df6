import type { CubeDef } from '../../platform/cube.js';
import { GRANULARITIES } from './datalab.dates.js';
import type { CubeMetaOut } from './datalab.schemas.js';

export { dateRangeOf, type LocalClock, localClockOf, truncate } from './datalab.dates.js';
export { runJoinQuery } from './datalab.join.js';
export { type QueryContext, runQuery } from './datalab.query.js';

/**
 * A small Cube-style query engine over the cubes of datalab.cubes.ts: members, filters (and/or,
 * the usual operators), time dimensions with date ranges and granularities, grouping, ordering and
 * paging, in the query's time zone (UTC by default). It runs over the sandbox's own records. Refused
 * queries answer 400 with the service's generic message and a detail naming the problem; what Cube
 * takes without complaint (a date range that ends before it starts, a filter on a measure the query
 * does not select) it takes too.
 *
 * Rows are read one by one and aggregated as they come: a query keeps its groups (an ungrouped one
 * the rows its page needs), never the rows. It gives way to other requests every few milliseconds,
 * and before each connection's dataset it reads once it has worked a while (a dataset is generated in
 * one piece), and stops with a 400 past the budget of a request (DATALAB_BUDGET, lib/budgets.ts).
 *
 * This file holds the cubes' schemas; the engine is in datalab.query.ts (one query), datalab.join.ts
 * (joined queries), datalab.filters.ts, datalab.dates.ts, datalab.groups.ts and datalab.meter.ts.
 */

export function cubeSchemas(cubes: readonly CubeDef[]): CubeMetaOut[] {
  return cubes.map((cube) => ({
    name: cube.name,
    type: 'cube',
    title: cube.title,
    description: cube.description,
    connectedComponent: 1,
    measures: cube.measures.map((m) => ({
      name: `${cube.name}.${m.name}`,
      title: `${cube.title} ${m.title}`,
      shortTitle: m.title,
      aliasName: null,
      type: 'number',
      description: m.description,
      aggType: m.agg,
      drillMembers: [],
      format: m.monetary ? 'currency' : null,
      primaryKey: null,
      suggestFilterValues: null,
      nullable: null,
      values: null,
      allowedGranularities: null,
      jsonSchema: null,
      monetary: m.monetary ?? false,
      currencyDimension: m.monetary && cube.currency ? `${cube.name}.currency` : null,
      currencySensitive: m.monetary ?? false,
      alignAxis: null,
    })),
    dimensions: cube.dimensions.map((d) => ({
      name: `${cube.name}.${d.name}`,
      title: `${cube.title} ${d.title}`,
      shortTitle: d.title,
      aliasName: null,
      type: d.type,
      description: d.description,
      aggType: null,
      drillMembers: null,
      format: null,
      primaryKey: d.primaryKey ?? false,
      suggestFilterValues: d.values !== undefined,
      nullable: !d.primaryKey,
      values: d.values ?? null,
      allowedGranularities: d.type === 'time' ? [...GRANULARITIES] : null,
      jsonSchema: null,
      monetary: false,
      currencyDimension: null,
      currencySensitive: false,
      alignAxis: d.alignAxis ?? null,
    })),
    hierarchies: [],
    segments: [],
    relationships: cube.relationships,
    domain: cube.domain,
    queryGroup: cube.domain ?? 'platform',
  }));
}
