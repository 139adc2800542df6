import type { Vertical } from '../../platform/operation.js';
import { commerceDatasetOf } from './commerce.domain.js';
import type { CommerceDataset } from './commerce.records.js';

/** The eCommerce vertical as its operations see it: the connection's dataset, built on first access. */
export const commerce: Vertical<CommerceDataset> = {
  api: 'eCommerce',
  open: (c, { connection }) => commerceDatasetOf(c.get('store'), connection),
};
