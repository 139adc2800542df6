import { operation } from '../../../platform/operation.js';
import { fecRows } from '../model/ledger/fec.js';
import { accountingLedger } from './accounting.context.js';
import * as routes from './exports.routes.js';

export const exportFec = operation(accountingLedger, routes.exportFec, (c, { data }) => {
  const { date_from, date_to } = c.req.valid('query');
  return c.json(fecRows(data.ledger, date_from, date_to), 200);
});
