import { errors, serviceError } from '../../../lib/errors.js';
import { isStorableKey, own } from '../../../lib/own.js';
import type { Integration } from '../../../platform/catalogue.js';
import type {
  LedgerAddress,
  LedgerContact,
  LedgerPartner,
  LedgerRecord,
} from '../model/accounting.records.js';
import { instantOf } from '../model/ledger/derived.js';
import type { PostingContext } from '../model/ledger/posting.js';
import { assertCompanyId, assertVatNumber, type PartnerRole } from '../model/ledger/rules.js';
import type { ContactItemOut, PartnerInInput, PartnerOut, PartnerUpdateInput } from './partners.schemas.js';

/**
 * Clients and suppliers. A partner record holds both roles; the client operations see the partners
 * that are clients, the supplier operations those that are suppliers. Integrations with
 * features.unified_partners keep one entity per company: a duplicate is looked for among every
 * partner, and force_merge gives an existing partner the other role.
 */

const fail = errors.accountingFailure;

const hasRole = (partner: LedgerPartner, role: PartnerRole) =>
  role === 'client' ? partner.is_client : partner.is_supplier;

export function toPartnerItem(partner: LedgerPartner, role: PartnerRole): PartnerOut {
  return {
    id: partner.id,
    external_reference: partner.external_reference,
    first_name: partner.first_name,
    last_name: partner.last_name,
    name: partner.name,
    function: partner.function,
    is_company: partner.is_company,
    company_id: partner.company_id,
    phone: partner.phone,
    mobile: partner.mobile,
    email: partner.email,
    language: partner.language,
    internal_notes: partner.internal_notes,
    website: partner.website,
    vat: partner.vat,
    company_number: partner.company_number,
    iban: partner.iban,
    bank_account: partner.bank_account,
    currency: partner.currency,
    active: partner.active,
    account_number: role === 'client' ? partner.client_account : partner.supplier_account,
    last_updated_on: partner.last_updated_on,
    addresses: partner.addresses.map((a) => ({ ...a })),
    third_party_account: partner.code,
    bank_accounts: partner.bank_accounts.map((b) => ({ ...b, routing_code: null })),
  };
}

/** A client (or supplier) of the folder, 404 otherwise. */
export function requirePartnerOfRole(ledger: LedgerRecord, role: PartnerRole, id: string): LedgerPartner {
  const partner = own(ledger.partners, id.toLowerCase());
  if (!partner || !hasRole(partner, role)) {
    throw serviceError('partnerNotFound', `No ${role} with the id '${id}' in the folder`);
  }
  return partner;
}

export interface PartnerFilters {
  search?: string | undefined;
  updated_after?: string | undefined;
}

/** Partners of a role, by code; `search` looks in names, e-mail, VAT, codes and references. */
export function listPartners(
  ledger: LedgerRecord,
  role: PartnerRole,
  filters: PartnerFilters,
): LedgerPartner[] {
  const needle = filters.search?.trim().toLowerCase();
  const after = filters.updated_after ? instantOf(filters.updated_after) : undefined;
  return Object.values(ledger.partners)
    .filter((p) => hasRole(p, role))
    .filter((p) => after === undefined || Date.parse(p.last_updated_on) > after)
    .filter(
      (p) =>
        !needle ||
        [
          p.name,
          p.first_name,
          p.last_name,
          p.email,
          p.vat,
          p.code,
          p.external_reference,
          p.company_number,
        ].some((value) => value?.toLowerCase().includes(needle)),
    )
    .sort((a, b) => a.code.localeCompare(b.code) || a.id.localeCompare(b.id));
}

const addressIn = (
  address: Partial<LedgerAddress> & { address_type: LedgerAddress['address_type'] },
): LedgerAddress => ({
  address_type: address.address_type,
  name: address.name ?? null,
  number: address.number ?? null,
  box: address.box ?? null,
  phone: address.phone ?? null,
  mobile: address.mobile ?? null,
  email: address.email ?? null,
  street: address.street ?? null,
  city: address.city ?? null,
  postal_code: address.postal_code ?? null,
  country: address.country ?? null,
});

/**
 * The account a new partner of a role posts to: the collective account unless one is given. A given
 * account must be a receivable (client) or payable (supplier) account; a new number (of any form: some
 * charts number their client accounts 411DUPONT) opens such an account named after the partner.
 */
function partnerAccount(
  ledger: LedgerRecord,
  role: PartnerRole,
  accountNumber: string | null | undefined,
): { number: string; create: boolean } {
  const collective = role === 'client' ? ledger.defaults.receivable_account : ledger.defaults.payable_account;
  if (!accountNumber) return { number: collective, create: false };
  if (!isStorableKey(accountNumber))
    throw fail(`account_number: '${accountNumber}' cannot number an account`);
  const type = role === 'client' ? 'receivable' : 'payable';
  const existing = own(ledger.accounts, accountNumber);
  if (existing) {
    if (existing.type !== type) throw fail(`account_number: '${accountNumber}' is not a ${type} account`);
    return { number: accountNumber, create: false };
  }
  return { number: accountNumber, create: true };
}

/**
 * Same code/id: another partner (of the same role; of any role for unified partners) with the same
 * external_reference, or with the same dedicated (non-collective) account number.
 */
function assertNoDuplicate(
  ledger: LedgerRecord,
  role: PartnerRole,
  unified: boolean,
  candidate: { external_reference: string | null; account: string | null },
  except?: string,
): void {
  const collective = new Set([ledger.defaults.receivable_account, ledger.defaults.payable_account]);
  for (const other of Object.values(ledger.partners)) {
    if (other.id === except || (!unified && !hasRole(other, role))) continue;
    if (candidate.external_reference && other.external_reference === candidate.external_reference) {
      throw errors.accountingPartnerDuplicate(
        `The ${other.is_client ? 'client' : 'supplier'} ${other.code} has the external_reference '${candidate.external_reference}'`,
      );
    }
    const account = candidate.account;
    if (
      account &&
      !collective.has(account) &&
      (other.client_account === account || other.supplier_account === account)
    ) {
      throw errors.accountingPartnerDuplicate(
        `The partner ${other.code} already uses the account '${account}'`,
      );
    }
  }
}

/**
 * POST clients / suppliers. force_merge (unified partners only) names an existing partner of the
 * other role: it keeps its id and history, takes the fields given, and gains the new role, so it
 * is listed both as a client and as a supplier. Other integrations keep clients and suppliers apart:
 * there is nothing to merge, and force_merge is not used.
 */
export function createPartner(
  ledger: LedgerRecord,
  integration: Integration,
  role: PartnerRole,
  input: PartnerInInput,
  forceMerge: string | undefined,
  ctx: PostingContext,
): LedgerPartner {
  const unified = integration.features.unified_partners;
  let merged: LedgerPartner | undefined;
  if (forceMerge && unified) {
    const other: PartnerRole = role === 'client' ? 'supplier' : 'client';
    merged = own(ledger.partners, forceMerge.toLowerCase());
    if (!merged || !hasRole(merged, other)) {
      throw serviceError('partnerNotFound', `force_merge: no ${other} with the id '${forceMerge}'`);
    }
    if (hasRole(merged, role)) {
      throw errors.accountingPartnerDuplicate(
        `force_merge: the partner '${forceMerge}' is already a ${role}`,
      );
    }
  }
  assertVatNumber(input.vat, ledger);
  assertCompanyId(ledger, input.company_id, merged?.id);
  const account = partnerAccount(ledger, role, input.account_number);
  assertNoDuplicate(
    ledger,
    role,
    unified,
    { external_reference: input.external_reference ?? null, account: input.account_number ?? null },
    merged?.id,
  );

  if (account.create) {
    ledger.accounts[account.number] = {
      number: account.number,
      name: input.name,
      type: role === 'client' ? 'receivable' : 'payable',
      active: true,
      scheme_ids: null,
      accounting_category: null,
    };
  }
  const prefix = role === 'client' ? 'C' : 'S';
  const fields = {
    external_reference: input.external_reference ?? null,
    first_name: input.first_name ?? null,
    last_name: input.last_name ?? null,
    name: input.name,
    function: input.function ?? null,
    is_company: input.is_company ?? true,
    company_id: input.company_id?.toLowerCase() ?? null,
    phone: input.phone ?? null,
    mobile: input.mobile ?? null,
    email: input.email ?? null,
    language: input.language ?? null,
    internal_notes: input.internal_notes ?? null,
    website: input.website ?? null,
    vat: input.vat ?? null,
    company_number: input.company_number ?? null,
    iban: input.iban ?? null,
    bank_account: input.bank_account ?? null,
    currency: input.currency ?? null,
    active: input.active ?? true,
    addresses: input.addresses.map(addressIn),
    bank_accounts:
      input.iban || input.bank_account
        ? [
            {
              is_primary: true,
              currency: input.currency ?? null,
              iban: input.iban ?? null,
              bic_swift: null,
              account_number: input.bank_account ?? null,
            },
          ]
        : [],
    last_updated_on: ctx.now,
  };
  if (merged) {
    Object.assign(merged, fields, {
      is_client: true,
      is_supplier: true,
      client_account: role === 'client' ? account.number : merged.client_account,
      supplier_account: role === 'supplier' ? account.number : merged.supplier_account,
    });
    return merged;
  }
  const counter = `partner:${prefix}`;
  ledger.counters[counter] = (own(ledger.counters, counter) ?? 0) + 1;
  const partner: LedgerPartner = {
    id: ctx.mint('accounting-partner'),
    is_client: role === 'client',
    is_supplier: role === 'supplier',
    code: `${prefix}${String(own(ledger.counters, counter)).padStart(5, '0')}`,
    ...fields,
    client_account: role === 'client' ? account.number : null,
    supplier_account: role === 'supplier' ? account.number : null,
    created_on: ctx.now,
  };
  ledger.partners[partner.id] = partner;
  return partner;
}

/** PATCH clients / suppliers: the fields given replace the partner's; the rules of creation apply. */
export function updatePartner(
  ledger: LedgerRecord,
  integration: Integration,
  partner: LedgerPartner,
  role: PartnerRole,
  input: PartnerUpdateInput,
  now: string,
): LedgerPartner {
  assertVatNumber(input.vat, ledger);
  assertCompanyId(ledger, input.company_id, partner.id);
  if (input.external_reference) {
    assertNoDuplicate(
      ledger,
      role,
      integration.features.unified_partners,
      { external_reference: input.external_reference, account: null },
      partner.id,
    );
  }
  const text = [
    'external_reference',
    'first_name',
    'last_name',
    'function',
    'phone',
    'mobile',
    'email',
    'language',
    'internal_notes',
    'website',
    'vat',
    'company_number',
    'iban',
    'bank_account',
    'currency',
  ] as const;
  for (const key of text) {
    const value = input[key];
    if (value !== undefined) partner[key] = value;
  }
  if (input.company_id !== undefined) partner.company_id = input.company_id?.toLowerCase() ?? null;
  if (input.name) partner.name = input.name;
  if (input.is_company !== undefined && input.is_company !== null) partner.is_company = input.is_company;
  if (input.active !== undefined && input.active !== null) partner.active = input.active;
  if (input.addresses !== undefined) partner.addresses = (input.addresses ?? []).map(addressIn);
  if (input.iban !== undefined || input.bank_account !== undefined) {
    const primary = partner.bank_accounts[0];
    const iban = partner.iban;
    const number = partner.bank_account;
    if (primary) {
      primary.iban = iban;
      primary.account_number = number;
    } else if (iban || number) {
      partner.bank_accounts.push({
        is_primary: true,
        currency: partner.currency,
        iban,
        bic_swift: null,
        account_number: number,
      });
    }
  }
  partner.last_updated_on = now;
  return partner;
}

export const toContactItem = (contact: LedgerContact): ContactItemOut => ({
  id: contact.id,
  name: contact.name,
  first_name: contact.first_name,
  last_name: contact.last_name,
  function: contact.function,
  email: contact.email,
  phone: contact.phone,
  mobile: contact.mobile,
});

/** Contacts of a client or supplier, by name. */
export function contactsOf(ledger: LedgerRecord, role: PartnerRole, partnerId: string): LedgerContact[] {
  const partner = requirePartnerOfRole(ledger, role, partnerId);
  return Object.values(ledger.contacts)
    .filter((c) => c.partner_id === partner.id)
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}
