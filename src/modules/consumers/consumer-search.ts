import { canSee, visibleConsumers } from '../../platform/access.js';
import type { Principal } from '../../platform/tokens.js';
import { searchCandidates } from '../../store/indexes.js';
import type { ConsumerRecord, World } from '../../store/world.js';
import { type ConsumerFilters, consumerMatcher } from './consumers.domain.js';

// Printable ASCII: lower-casing it and the haystack finds every match the case-insensitive rule
// finds (outside ASCII, case folding and lower-casing differ, e.g. the Greek final sigma).
const ASCII = /^[\x20-\x7e]*$/;

/**
 * GET /consumers: the consumers the caller sees that pass the filters, in creation order. A search
 * of ASCII text goes through the environment's search index (store/indexes.ts) and checks each
 * candidate with the rule itself; any other list walks the environment's consumers.
 */
export function searchConsumers(
  world: World,
  principal: Principal,
  filters: ConsumerFilters,
): ConsumerRecord[] {
  const text = filters.search;
  const matches = consumerMatcher(filters);
  if (!text || !ASCII.test(text)) return visibleConsumers(world, principal, matches);
  const out: ConsumerRecord[] = [];
  searchCandidates(world, principal.accountid, principal.envid, text.toLowerCase(), (consumer) => {
    if (canSee(principal, consumer) && matches(consumer)) out.push(consumer);
  });
  return out;
}
