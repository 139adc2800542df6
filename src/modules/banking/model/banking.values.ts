import { z } from '@hono/zod-openapi';

/**
 * The value sets of the Banking records that the wire names as its enumerations: the records
 * (banking.records.ts), the generator and the wire shapes (api/banking.schemas.ts) take them from here.
 */

export const OperationType = z
  .enum([
    'incoming_transfer',
    'outgoing_transfer',
    'card',
    'direct_debit',
    'direct_debit_collection',
    'direct_debit_hold',
    'fee',
    'cheque',
    'recall',
    'swift_income',
    'pay_later',
    'financing_installment',
    'cashback',
    'interest',
    'other',
  ])
  .openapi('OperationType');

export const BankingTransactionStatus = z
  .enum(['pending', 'declined', 'completed'])
  .openapi('BankingTransactionStatus');
