import { own } from '../../../lib/own.js';
import type { Country } from '../../../platform/countries.js';
import {
  addDays,
  customPatch,
  customPost,
  EXAMPLE_PDF,
  type ExampleScope,
  type ExampleWorld,
  freeName,
  invoiceAmounts,
  need,
  verticalExamples,
} from '../../../platform/examples.js';
import type { InvoicingDataset } from '../model/invoicing.records.js';
import { invoicingCountryOf } from '../world/invoicing.countries.js';
import { invoicingDatasetOf, outstandingOf } from './invoicing.domain.js';

/**
 * The request body examples of the Invoicing operations (see platform/examples.ts): read off the
 * dataset of the consumer /docs prefills for invoicing paths (its contacts, products, taxes,
 * invoices and payments), through the dataset function the routes use.
 */

/** The dataset of a consumer's active invoicing connection. */
const datasetOf = (w: ExampleWorld, { connection }: ExampleScope): InvoicingDataset =>
  invoicingDatasetOf(
    w.services.store,
    connection.consumerid,
    connection.connectionid,
    connection.integrationid,
  );

/** The prefilled invoicing consumer's connection and its dataset. */
const invoicingOf = (w: ExampleWorld): ExampleScope & { data: InvoicingDataset } =>
  w.once('invoicing', () => {
    const scope = w.scope('invoicing', 'Invoicing');
    return { ...scope, data: datasetOf(w, scope) };
  });

/** The invoicing software's active standard rate (the highest). */
function standardTax(data: InvoicingDataset) {
  return need(
    Object.values(data.taxes)
      .filter((t) => t.active && t.type !== 'purchase')
      .sort((a, b) => b.rate - a.rate)[0],
    'an active tax',
  );
}

interface NewCustomer {
  company_name: string;
  email: string;
  phone: string;
  vat: string;
  language: string;
  address: { street: string; number: string; city: string; postal_code: string };
}

/** A new customer of a company of each country: a company of that country, in its language. */
const NEW_CUSTOMERS: Readonly<Record<Country, NewCustomer>> = {
  BE: {
    company_name: 'Atelier Verhaegen SRL',
    email: 'hello@atelier-verhaegen.example',
    phone: '+32 9 223 45 67',
    vat: 'BE0455987321',
    language: 'nl',
    address: { street: 'Korenmarkt', number: '14', city: 'Gent', postal_code: '9000' },
  },
  FR: {
    company_name: 'Atelier Marchand SARL',
    email: 'contact@atelier-marchand.example',
    phone: '+33 4 78 42 16 90',
    vat: 'FR10512346789',
    language: 'fr',
    address: { street: 'rue de la République', number: '18', city: 'Lyon', postal_code: '69002' },
  },
  NL: {
    company_name: 'Bakker Interieur B.V.',
    email: 'info@bakker-interieur.example',
    phone: '+31 30 231 45 67',
    vat: 'NL812345678B01',
    language: 'nl',
    address: { street: 'Oudegracht', number: '112', city: 'Utrecht', postal_code: '3511 AA' },
  },
  DE: {
    company_name: 'Werkstatt Becker GmbH',
    email: 'info@werkstatt-becker.example',
    phone: '+49 221 4567 890',
    vat: 'DE812345678',
    language: 'de',
    address: { street: 'Ehrenstraße', number: '21', city: 'Köln', postal_code: '50672' },
  },
  ES: {
    company_name: 'Taller Ruiz S.L.',
    email: 'hola@taller-ruiz.example',
    phone: '+34 963 45 67 89',
    vat: 'ESB46123456',
    language: 'es',
    address: { street: 'Calle de Colón', number: '12', city: 'Valencia', postal_code: '46004' },
  },
};

/** The examples of the Invoicing operations, by operationId. */
export const invoicingExamples = verticalExamples(
  {
    invoicing_post_contacts: {
      path: '/consumers/{consumer_id}/invoicing/contacts',
      // A customer of the software's country (invoicing.countries.ts).
      build: (w) => {
        const { country } = invoicingCountryOf(invoicingOf(w).connection.integrationid);
        const { company_name, email, phone, vat, language, address } = NEW_CUSTOMERS[country];
        return {
          body: {
            is_customer: true,
            is_company: true,
            company_name,
            email,
            phone,
            vat,
            currency: 'EUR',
            language,
            addresses: [{ address_type: 'main', ...address, country }],
          },
        };
      },
    },
    invoicing_post_products: {
      path: '/consumers/{consumer_id}/invoicing/products',
      build: (w) => {
        const tax = standardTax(invoicingOf(w).data);
        const codes = new Set(Object.values(invoicingOf(w).data.products).map((p) => p.code));
        return {
          body: {
            name: 'Website maintenance (monthly)',
            code: freeName((c) => codes.has(c), 'MAINT-M'),
            unit_price: 290,
            unit: 'month',
            category: 'Services',
            currency: 'EUR',
            tax_id: tax.id,
          },
        };
      },
    },
    invoicing_post_invoices: {
      path: '/consumers/{consumer_id}/invoicing/invoices',
      build: (w) => {
        const { data } = invoicingOf(w);
        const customer = need(
          Object.values(data.contacts).find((c) => c.is_customer && c.currency !== 'USD'),
          'a customer',
        );
        const tax = standardTax(data);
        const product = need(
          Object.values(data.products).find((p) => p.tax_id === tax.id && p.unit_price !== null),
          'a product at the standard rate',
        );
        const amounts = invoiceAmounts(tax.rate, [{ quantity: 3, unit_price: product.unit_price ?? 0 }]);
        return {
          body: {
            invoice_type: 'customer_invoice',
            status: 'posted',
            currency: 'EUR',
            invoice_date: w.today,
            due_date: addDays(w.today, 30),
            partner_id: customer.id,
            reference: 'Order 2026-118',
            untaxed_amount: amounts.untaxed_amount,
            tax_amount: amounts.tax_amount,
            total: amounts.total,
            lines: amounts.lines.map((line) => ({
              ...line,
              product_id: product.id,
              product_name: product.name,
              tax_id: tax.id,
            })),
          },
        };
      },
    },
    invoicing_upload_document: {
      path: '/consumers/{consumer_id}/invoicing/upload-document',
      build: () => ({ body: { base64_string: EXAMPLE_PDF, document_type: 'supplier_document' } }),
    },
    invoicing_create_payment: {
      path: '/consumers/{consumer_id}/invoicing/payments',
      build: (w) => {
        const { data } = invoicingOf(w);
        const open = Object.values(data.invoices)
          .filter(
            (i) => i.status === 'posted' && i.invoice_type === 'customer_invoice' && i.currency === 'EUR',
          )
          .map((invoice) => ({ invoice, outstanding: outstandingOf(data, invoice) }))
          .filter(({ outstanding }) => outstanding > 0)
          .sort((a, b) => a.invoice.invoice_date.localeCompare(b.invoice.invoice_date));
        const { invoice, outstanding } = need(open[0], 'an open invoice');
        const method = need(Object.values(data.payment_methods)[0], 'a payment method');
        return {
          body: {
            invoice_id: invoice.id,
            amount: outstanding,
            currency: invoice.currency,
            date: w.today,
            payment_method_id: method.id,
          },
        };
      },
    },
    invoicing_update_payment: {
      path: '/consumers/{consumer_id}/invoicing/payments/{payment_id}',
      build: (w) => {
        const { data } = invoicingOf(w);
        const payment = need(
          Object.values(data.payments)
            .filter((p) => own(data.invoices, p.invoice_id)?.status === 'posted')
            .sort((a, b) => b.payment_date.localeCompare(a.payment_date))[0],
          'a payment of a posted invoice',
        );
        const other = Object.values(data.payment_methods).find((m) => m.id !== payment.payment_method_id);
        return {
          body: {
            payment_method_id: other?.id ?? payment.payment_method_id,
            date: payment.payment_date.slice(0, 10),
          },
          params: { payment_id: payment.id },
        };
      },
    },
    invoicing_create_opportunity: {
      path: '/consumers/{consumer_id}/invoicing/opportunities',
      build: (w) => {
        const { data } = invoicingOf(w);
        const customer = need(
          Object.values(data.contacts).find((c) => c.is_customer),
          'a customer',
        );
        return {
          body: {
            name: 'Yearly maintenance contract',
            total: 3480,
            probability: 40,
            status: 'open',
            partner_id: customer.id,
            currency: 'EUR',
            pipe_name: 'Sales pipeline',
            due_date: addDays(w.today, 45),
          },
        };
      },
    },
    invoicing_custom_post: {
      path: '/consumers/{consumer_id}/invoicing/custom/{custom_path}',
      build: (w) =>
        customPost(w, invoicingOf(w).connection, 'quotes', 'QUOTE', {
          partner_id: need(
            Object.values(invoicingOf(w).data.contacts).find((c) => c.is_customer),
            'a customer',
          ).id,
          total: 1450,
          currency: 'EUR',
        }),
    },
    invoicing_custom_patch: {
      path: '/consumers/{consumer_id}/invoicing/custom/{custom_path}',
      build: (w) => customPatch(w, invoicingOf(w).connection, 'quotes', 'QUOTE', { status: 'accepted' }),
    },
  },
  {
    // A sync of tax rates to VAT codes maps the rates of the consumer's active taxes.
    taxRates: (w, consumerid) => {
      const { taxes } = datasetOf(w, w.scopeOf(consumerid, 'Invoicing'));
      return [
        ...new Set(
          Object.values(taxes)
            .filter((t) => t.active)
            .map((t) => t.rate),
        ),
      ];
    },
  },
);
