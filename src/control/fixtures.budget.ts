import { FIXTURE_BUDGET } from '../lib/budgets.js';
import { messages } from '../lib/errors.js';
import { measure } from '../lib/measure.js';
import { FixtureError } from '../platform/fixtures/errors.js';
import { amount } from './timeline-budget.js';

/**
 * The budget of a fixture document (lib/budgets.ts), checked before anything of it is read further
 * (a file before it is read at all): its items (the elements of its lists, at any depth) and its
 * bytes as JSON. Its timeline has a budget of its own besides (timeline-budget.ts).
 */

const WHAT = 'The fixture document';
const SPLIT = 'split it into several documents, loaded one after the other';

function overBudget(bound: string, detail: string, file: string | null): never {
  throw new FixtureError(422, messages.overBudget(WHAT, bound), { path: '', detail, file });
}

/** Refuses a document past the budget, with a 422 that says which bound. */
export function assertFixtureBudget(input: unknown, file: string | null): void {
  const size = measure(input, FIXTURE_BUDGET);
  if (size.over === 'items') {
    overBudget(
      `${amount(FIXTURE_BUDGET.items)} items`,
      `It holds more than ${amount(FIXTURE_BUDGET.items)} items (the elements of its lists, at any depth): ${SPLIT}`,
      file,
    );
  }
  if (size.over === 'bytes') {
    overBudget(
      `${amount(FIXTURE_BUDGET.bytes)} bytes`,
      `It weighs more than ${amount(FIXTURE_BUDGET.bytes)} bytes as JSON: ${SPLIT}`,
      file,
    );
  }
}

/** Refuses a fixture file larger than the budget's bytes, before reading it. */
export function assertFixtureFileBudget(bytes: number, file: string): void {
  if (bytes <= FIXTURE_BUDGET.bytes) return;
  overBudget(
    `${amount(FIXTURE_BUDGET.bytes)} bytes`,
    `The file holds ${amount(bytes)} bytes: ${SPLIT}`,
    file,
  );
}
