import type { Services } from './context.js';
import type { TickTask } from './ticker.js';

/** The ticker's key of the work of livingDatasetsTask: a move of the clock waits for it. */
export const LIVING_DATASETS = 'living-datasets';

/** How many living datasets a run of the background work builds again after the clock moved. */
const WARM_LIVING_DATASETS = 16;

/**
 * Background task: the living datasets clients reached, built again for the minute the clock moved
 * to, so that the next read (a nightly sync's) finds them built. Built apart from any write, in
 * slices (store.prepare), the most recently reached first: requests, and the other worlds, go on
 * meanwhile.
 */
export function livingDatasetsTask(services: Services): TickTask {
  return (store) => {
    if (services.ticker.busy(LIVING_DATASETS)) return;
    const dropped = store.takeDroppedLiving(WARM_LIVING_DATASETS);
    if (dropped.length === 0) return;
    services.ticker.spawn(LIVING_DATASETS, async (direct) => {
      for (const [collection, key, args] of dropped) await direct.prepare(collection, key, args);
    });
  };
}
