import { all, type VerticalSandbox } from '../verticals/finance-helpers.js';

/** What the Invoicing tests share: the reference data of a vertical sandbox, and a valid invoice body. */

/**
 * The standard VAT of the showcase consumer's software: Evoliz, a French one (its country's taxes,
 * src/modules/invoicing/world/invoicing.countries.ts).
 */
export const STANDARD = { code: 'TVA20', rate: 20 } as const;

// biome-ignore lint/suspicious/noExplicitAny: items are read field by field
export type Item = any;

export const keysOf = (schema: { shape: object }) => Object.keys(schema.shape).sort();

export async function reference(v: VerticalSandbox) {
  const taxes: Item[] = await all(v, '/taxes');
  const products: Item[] = await all(v, '/products');
  const contacts: Item[] = await all(v, '/contacts');
  const methods: Item[] = await all(v, '/payment-methods');
  const tax = (code: string) => taxes.find((t) => t.code === code);
  return {
    taxes,
    products,
    contacts,
    methods,
    tax,
    customer: contacts.find((c) => c.is_customer && c.currency === 'EUR'),
    supplier: contacts.find((c) => c.is_supplier && !c.is_customer),
    /** The tax at the standard rate. */
    standard: tax(STANDARD.code),
    goods: products.find((p) => p.available_quantity !== null && p.tax_id === tax(STANDARD.code)?.id),
    service: products.find((p) => p.available_quantity === null),
    transfer: methods.find((m) => m.name === 'Virement')?.id as string,
  };
}

/** A one-line invoice body whose amounts add up. */
export function invoiceBody(
  type: string,
  partnerId: string | null,
  line: { product_id?: string; tax_id?: string; unit_price: number; quantity: number; rate: number },
  extra: Record<string, unknown> = {},
) {
  const untaxed = Math.round(line.unit_price * line.quantity * 100) / 100;
  const tax = Math.round(untaxed * line.rate) / 100;
  const total = Math.round((untaxed + tax) * 100) / 100;
  return {
    invoice_type: type,
    status: 'posted',
    currency: 'EUR',
    invoice_date: '2026-01-15',
    due_date: '2026-02-14',
    partner_id: partnerId,
    untaxed_amount: untaxed,
    tax_amount: tax,
    total,
    lines: [
      {
        description: 'Line',
        unit_price: line.unit_price,
        quantity: line.quantity,
        untaxed_amount: untaxed,
        tax_amount: tax,
        total,
        tax_rate: line.rate,
        tax_id: line.tax_id ?? null,
        product_id: line.product_id ?? null,
      },
    ],
    ...extra,
  };
}
