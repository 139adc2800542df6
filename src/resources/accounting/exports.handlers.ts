import type { RouteHandler } from '@hono/zod-openapi';
import type { AppEnv } from '../../context.js';
import { requireAccounting } from './accounting.context.js';
import type * as routes from './exports.routes.js';
import { fecRows } from './ledger/fec.js';

type Handler<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AppEnv>;

export const exportFec: Handler<'exportFec'> = (c) => {
  const { ledger } = requireAccounting(c, 'accounting_export_fec');
  const { date_from, date_to } = c.req.valid('query');
  return c.json(fecRows(ledger, date_from, date_to), 200);
};
