import { accountingModule } from './modules/accounting/index.js';
import { bankingModule } from './modules/banking/index.js';
import { commerceModule } from './modules/commerce/index.js';
import { invoicingModule } from './modules/invoicing/index.js';
import { paymentModule } from './modules/payment/index.js';
import { pmsModule } from './modules/pms/index.js';
import { posModule } from './modules/pos/index.js';
import type { AnyVerticalModule } from './platform/vertical-module.js';

/**
 * The verticals of the sandbox, in the order the app registers their routes. The one list: the
 * app builds every vertical's collection, routes, tasks, fixtures, cubes, samples and examples
 * from it. Removing a vertical is removing its folder and its line here.
 */
export const VERTICALS: readonly AnyVerticalModule[] = [
  accountingModule,
  invoicingModule,
  bankingModule,
  paymentModule,
  posModule,
  commerceModule,
  pmsModule,
];
