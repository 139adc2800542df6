import { accountingModule } from './modules/accounting/index.js';
import { bankingModule } from './modules/banking/index.js';
import { commerceModule } from './modules/commerce/index.js';
import { invoicingModule } from './modules/invoicing/index.js';
import { paymentModule } from './modules/payment/index.js';
import { pmsModule } from './modules/pms/index.js';
import { posModule } from './modules/pos/index.js';
import { lazyVertical } from './platform/lazy-vertical.js';
import type { AnyVerticalModule } from './platform/vertical-module.js';

/**
 * The verticals of the sandbox, in the order the app registers their routes. The one list: the
 * app builds every vertical's collection, routes, tasks, fixtures, cubes, samples and examples
 * from it. Removing a vertical is removing its folder and its line here.
 *
 * Each is loaded on first use (platform/lazy-vertical.ts): in the package's bundle, a vertical's code
 * runs only when a process first needs it, which the build arranges from these lines as they are
 * written (`lazyVertical(() => <name>)`, the name imported from the vertical's index).
 */
export const VERTICALS: readonly AnyVerticalModule[] = [
  lazyVertical(() => accountingModule),
  lazyVertical(() => invoicingModule),
  lazyVertical(() => bankingModule),
  lazyVertical(() => paymentModule),
  lazyVertical(() => posModule),
  lazyVertical(() => commerceModule),
  lazyVertical(() => pmsModule),
];
