import type { LedgerEmployee, LedgerRecord } from '../model/accounting.records.js';

/** Employees by name. */
export const listEmployees = (ledger: LedgerRecord): LedgerEmployee[] =>
  Object.values(ledger.employees).sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));

export const toEmployeeItem = (employee: LedgerEmployee) => ({ ...employee });
