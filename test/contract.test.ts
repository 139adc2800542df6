import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';

/**
 * The generated /openapi.json against the reference description of the real service. Every operation
 * the sandbox serves under a (method, path) of the reference is compared, so operations added later
 * are covered without touching this file; PLATFORM_OPERATIONS lists those that must be served now.
 * Each check collects its mismatches and asserts the list is empty, so one run shows all of them.
 */

// biome-ignore lint/suspicious/noExplicitAny: the documents are walked as plain JSON
type Json = any;
type Schema = Record<string, Json>;

/** The operationIds that must be served; later work appends its own. */
const PLATFORM_OPERATIONS = [
  // Accounting: the ledger and its core operations.
  'accounting_get_folders',
  'accounting_get_folder',
  'accounting_get_bookyears',
  'accounting_get_analytic_plans',
  'accounting_get_schemes',
  'accounting_create_client',
  'accounting_get_clients',
  'accounting_update_client',
  'accounting_get_client',
  'accounting_create_supplier',
  'accounting_get_suppliers',
  'accounting_update_supplier',
  'accounting_get_supplier',
  'accounting_get_partner_contacts',
  'accounting_create_invoice',
  'accounting_create_invoice_multiple_plans',
  'accounting_get_invoices_by_type',
  'accounting_get_invoices_by_type_multi_analytic_plans',
  'accounting_get_invoice',
  'accounting_get_invoice_multi_analytic_plans',
  'accounting_get_journal_entries',
  'accounting_get_journal_entries_multi_plan',
  'accounting_get_journal_entry',
  'accounting_create_generic_journal_entry',
  'accounting_get_payments_by_invoice',
  'accounting_get_payment_methods',
  'accounting_create_invoice_payment',
  'accounting_get_payment_terms',
  'accounting_get_journals',
  'accounting_create_journal',
  'accounting_get_vat_codes',
  'accounting_match_entries',
  'accounting_match_entries_multiple',
  'accounting_get_chart_of_accounts',
  'accounting_get_accounts_balances',
  'accounting_get_outstandings',
  'accounting_create_ledger_account',
  // Accounting: every other operation of the Accounting tag.
  'accounting_create_analytic_account',
  'accounting_get_analytic_accounts',
  'accounting_create_analytic_account_multi_plans',
  'accounting_update_analytic_account',
  'accounting_get_analytic_account',
  'accounting_update_analytic_account_multi_plans',
  'accounting_get_analytic_account_multi_plans',
  'accounting_get_analytic_accounts_multi_plans',
  'accounting_create_miscellaneous_operation',
  'accounting_get_miscellaneous_operations',
  'accounting_get_miscellaneous_operation',
  'accounting_get_attachments',
  'accounting_add_attachment',
  'accounting_get_bank_accounts',
  'accounting_create_bank_account',
  'accounting_create_bank_transactions',
  'accounting_get_employees',
  'accounting_create_financial_entries',
  'accounting_create_expense',
  'accounting_export_fec',
  // Invoicing, Banking and Payment.
  'invoicing_get_contacts',
  'invoicing_post_contacts',
  'invoicing_get_contact',
  'invoicing_get_products',
  'invoicing_post_products',
  'invoicing_get_product',
  'invoicing_get_taxes',
  'invoicing_get_tax',
  'invoicing_get_invoices',
  'invoicing_post_invoices',
  'invoicing_get_invoice',
  'invoicing_upload_document',
  'invoicing_get_opportunities',
  'invoicing_get_opportunity',
  'invoicing_get_payments',
  'invoicing_create_payment',
  'invoicing_update_payment',
  'invoicing_get_payments_methods',
  'invoicing_get_bank_accounts',
  'invoicing_get_bank_transactions',
  'banking_get_financial_institutions',
  'banking_get_accounts',
  'banking_get_account_transactions',
  'banking_get_account_counterparts',
  'banking_get_attachments',
  'banking_get_opening_balance',
  'payment_get_locations',
  'payment_get_balances',
  'payment_get_transactions',
  'payment_get_payments',
  'payment_get_payment',
  'payment_get_refunds',
  'payment_get_payouts',
  'generate_access_token_token_post',
  'generate_mcp_token_mcp_token_post',
  'consumers_get_consumers',
  'consumers_create_consumer',
  'consumers_get_consumer',
  'consumers_update_consumer',
  'consumers_delete_consumer',
  'connections_get_connections',
  'connections_create_connection',
  'connections_update_connection',
  'connections_delete_connection',
  'get_transaction_by_client_request_id_consumers__consumer_id__connections__connection_id__transactions_get',
  'integrations_get_integrations',
  'integrations_get_integration_logo_json',
  'webhooks_get_webhook_types',
  'webhooks_create_webhook',
  'webhooks_get_webhooks',
  'webhooks_get_webhook',
  'webhooks_update_webhook',
  'webhooks_delete_webhook',
  'webhooks_get_webhook_logs',
  'datastores_get_datastores',
  'datastores_get_consumer_and_datastoredata',
  'datastores_create_consumer_datastoredata',
  'datastores_update_consumer_datastoredata',
  'datastores_delete_consumer_datastoredata',
  // Syncs, flows, executions, datalayer and issues.
  'syncs_get_syncs',
  'syncs_post_sync',
  'syncs_get_sync',
  'syncs_send_custom_event',
  'syncs_get_consumer_executions',
  'syncs_get_sync_executions',
  'syncs_get_execution',
  'syncs_create_synctoconsumer',
  'syncs_get_syncconsumer',
  'syncs_update_synctoconsumer',
  'syncs_enable_syncconsumer',
  'syncs_disable_syncconsumer',
  'syncs_update_flowtoconsumer',
  'datalayer_enable',
  'datalayer_refresh',
  'datalayer_disable',
  'issues_get_issues',
  'issues_get_issues_by_consumer_id',
  'issues_get_issue',
  // Point of Sale, eCommerce, Property Management System, Datalab and the local agents' releases.
  'pos_get_modifiers',
  'pos_get_orders',
  'pos_get_order',
  'pos_update_pos_customer',
  'pos_get_locations',
  'pos_get_payments',
  'pos_get_sales',
  'pos_get_payments_methods',
  'pos_get_customers',
  'pos_create_pos_customer',
  'pos_get_customer',
  'pos_get_product_categories',
  'pos_get_products',
  'pos_get_accounting_categories',
  'pos_get_taxes',
  'pos_get_closure',
  'pos_get_objectives',
  'pos_get_report',
  'ecommerce_get_customers',
  'ecommerce_get_customer',
  'ecommerce_get_products',
  'ecommerce_get_product',
  'ecommerce_get_variant',
  'ecommerce_update_variant_quantity',
  'ecommerce_get_locations',
  'ecommerce_get_orders',
  'ecommerce_create_order',
  'ecommerce_get_order',
  'ecommerce_get_payments_methods',
  'ecommerce_get_product_categories',
  'ecommerce_get_taxes',
  'ecommerce_get_countries',
  'pms_get_orders',
  'pms_get_invoices',
  'pms_get_customers',
  'pms_get_customer',
  'pms_get_locations',
  'pms_get_payments',
  'pms_get_payments_methods',
  'pms_get_accounting_categories',
  'pms_get_closure',
  'pms_get_taxes',
  'pms_get_accounting_transactions',
  'datalab_get_cube_schemas',
  'datalab_query_db',
  'get_releases_local_agents_releases_get',
] as const;

const REFERENCE_FILE = fileURLToPath(new URL('../../shared/reference/openapi.json', import.meta.url));

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

interface Operation {
  method: string;
  path: string;
  op: Schema;
}

const operationsOf = (doc: Json): Operation[] =>
  Object.entries(doc.paths as Record<string, Schema>).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ method, path, op: item[method] as Schema })),
  );

/** The project's names for the reference's schema names. */
const projectName = (name: string) =>
  name
    .replace(/^ChiftError$/, 'ServiceError')
    .replace(/^ChiftId$/, 'ServiceId')
    .replace(/^ChiftPage_/, 'ServicePage_');

const refName = (ref: string) => ref.split('/').pop() as string;

function deref(doc: Json, schema: Schema | undefined): Schema {
  let current = schema ?? {};
  for (let hops = 0; typeof current.$ref === 'string' && hops < 50; hops++) {
    current = doc.components.schemas[refName(current.$ref)] ?? {};
  }
  return current;
}

/** Follows $refs and drops a null alternative: anyOf [X, null] is X. */
function unwrap(doc: Json, schema: Schema | undefined): Schema {
  const current = deref(doc, schema);
  const alternatives = (current.anyOf ?? current.oneOf) as Schema[] | undefined;
  if (alternatives) {
    const rest = alternatives.filter((s) => s.type !== 'null');
    if (rest.length === 1) return unwrap(doc, rest[0]);
  }
  return current;
}

type Shape =
  | { kind: 'object'; properties: Record<string, Schema>; required: string[] }
  | { kind: 'array'; items: Shape }
  | { kind: 'union'; variants: Shape[] }
  | { kind: 'other' };

/** The top level of a schema: its properties and required list, allOf merged, arrays by their items. */
function shapeOf(doc: Json, schema: Schema | undefined): Shape {
  const s = unwrap(doc, schema);
  const alternatives = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (alternatives) {
    return {
      kind: 'union',
      variants: alternatives.filter((a) => a.type !== 'null').map((a) => shapeOf(doc, a)),
    };
  }
  if (s.type === 'array' || (Array.isArray(s.type) && s.type.includes('array'))) {
    return { kind: 'array', items: shapeOf(doc, s.items) };
  }
  if (s.properties || s.allOf || s.type === 'object') {
    const properties: Record<string, Schema> = {};
    const required = new Set<string>();
    for (const part of (s.allOf ?? []) as Schema[]) {
      const piece = shapeOf(doc, part);
      if (piece.kind !== 'object') continue;
      Object.assign(properties, piece.properties);
      for (const name of piece.required) required.add(name);
    }
    Object.assign(properties, s.properties ?? {});
    for (const name of (s.required ?? []) as string[]) required.add(name);
    return { kind: 'object', properties, required: [...required].sort() };
  }
  return { kind: 'other' };
}

/** The enum values of a schema (null left out), also through allOf [X, {decoration}]. */
function enumOf(doc: Json, schema: Schema | undefined): string[] | undefined {
  const s = unwrap(doc, schema);
  if (Array.isArray(s.enum))
    return (s.enum as unknown[])
      .filter((v) => v !== null)
      .map(String)
      .sort();
  for (const part of (s.allOf ?? []) as Schema[]) {
    const values = enumOf(doc, part);
    if (values) return values;
  }
  return undefined;
}

/** Compares the top level of a reference schema with the sandbox's; pushes each difference. */
function compareShapes(
  reference: Json,
  sandbox: Json,
  ref: Shape,
  own: Shape,
  where: string,
  out: string[],
): void {
  if (ref.kind === 'other') return;
  if (ref.kind !== own.kind) {
    out.push(`${where}: the reference has ${ref.kind}, the sandbox ${own.kind}`);
    return;
  }
  if (ref.kind === 'array' && own.kind === 'array') {
    compareShapes(reference, sandbox, ref.items, own.items, `${where}[]`, out);
    return;
  }
  if (ref.kind === 'union' && own.kind === 'union') {
    if (ref.variants.length !== own.variants.length) {
      out.push(
        `${where}: ${ref.variants.length} alternatives in the reference, ${own.variants.length} served`,
      );
      return;
    }
    ref.variants.forEach((variant, i) => {
      compareShapes(reference, sandbox, variant, own.variants[i] as Shape, `${where}|${i}`, out);
    });
    return;
  }
  if (ref.kind !== 'object' || own.kind !== 'object') return;
  const missing = Object.keys(ref.properties).filter((name) => !(name in own.properties));
  if (missing.length) out.push(`${where}: properties missing: ${missing.join(', ')}`);
  if (JSON.stringify(ref.required) !== JSON.stringify(own.required)) {
    out.push(
      `${where}: required ${JSON.stringify(own.required)}, the reference says ${JSON.stringify(ref.required)}`,
    );
  }
  for (const [name, schema] of Object.entries(ref.properties)) {
    compareEnums(reference, sandbox, schema, own.properties[name], `${where}.${name}`, out);
  }
}

function compareEnums(
  reference: Json,
  sandbox: Json,
  refSchema: Schema | undefined,
  ownSchema: Schema | undefined,
  where: string,
  out: string[],
): void {
  if (ownSchema === undefined) return;
  let expected = enumOf(reference, refSchema);
  let served = enumOf(sandbox, ownSchema);
  const refItems = unwrap(reference, refSchema);
  // An array of enum values: compare the values of its items.
  if (expected === undefined && refItems.type === 'array') {
    expected = enumOf(reference, refItems.items);
    served = enumOf(sandbox, unwrap(sandbox, ownSchema).items);
  }
  if (expected === undefined) return;
  if (JSON.stringify(expected) !== JSON.stringify(served)) {
    out.push(`${where}: enum ${JSON.stringify(served)}, the reference says ${JSON.stringify(expected)}`);
  }
}

const jsonSchemaOf = (content: Schema | undefined): Schema | undefined =>
  content?.['application/json']?.schema as Schema | undefined;

/** Every component name reachable from a piece of the reference. */
function referencedNames(doc: Json, node: Json, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) {
    for (const item of node) referencedNames(doc, item, into);
  } else if (node && typeof node === 'object') {
    if (typeof node.$ref === 'string') {
      const name = refName(node.$ref);
      if (!into.has(name)) {
        into.add(name);
        referencedNames(doc, doc.components.schemas[name], into);
      }
    }
    for (const value of Object.values(node)) referencedNames(doc, value, into);
  }
  return into;
}

function paramsOf(
  doc: Json,
  op: Schema,
  where: 'path' | 'query',
): Map<string, { required: boolean; schema: Schema }> {
  const out = new Map<string, { required: boolean; schema: Schema }>();
  for (const raw of (op.parameters ?? []) as Schema[]) {
    const p = deref(doc, raw);
    if (p.in === where) out.set(p.name, { required: p.required === true, schema: p.schema ?? {} });
  }
  return out;
}

const mcpScopes = (op: Schema): string[] | undefined => {
  const entry = ((op.security ?? []) as Schema[]).find((s) => 'mcp_auth' in s);
  return entry ? [...(entry.mcp_auth as string[])].sort() : undefined;
};

describe('contract: /openapi.json against the reference', () => {
  let reference: Json;
  let sandbox: Json;
  let served: Operation[];
  /** Served operations that the reference also has, with the reference's operation. */
  let shared: (Operation & { refOp: Schema })[];

  beforeAll(async () => {
    reference = JSON.parse(readFileSync(REFERENCE_FILE, 'utf8'));
    const res = await createApp().request('/openapi.json');
    expect(res.status).toBe(200);
    sandbox = await res.json();
    served = operationsOf(sandbox);
    shared = served.flatMap((o) => {
      const refOp = reference.paths[o.path]?.[o.method] as Schema | undefined;
      return refOp ? [{ ...o, refOp }] : [];
    });
  });

  it('serves the platform operations', () => {
    const ids = new Set(served.map((o) => o.op.operationId));
    expect(PLATFORM_OPERATIONS.filter((id) => !ids.has(id))).toEqual([]);
  });

  it('serves every platform operation under the method and path of the reference', () => {
    const refIds = new Map(operationsOf(reference).map((o) => [o.op.operationId as string, o]));
    const servedIds = new Set(shared.map((o) => o.op.operationId));
    const problems = PLATFORM_OPERATIONS.filter((id) => !refIds.has(id)).map(
      (id) => `${id}: not in the reference`,
    );
    for (const id of PLATFORM_OPERATIONS) {
      const ref = refIds.get(id);
      if (ref && served.some((o) => o.op.operationId === id) && !servedIds.has(id)) {
        problems.push(`${id}: served elsewhere than ${ref.method.toUpperCase()} ${ref.path}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("uses the reference's operationIds", () => {
    const problems = shared
      .filter((o) => o.op.operationId !== o.refOp.operationId)
      .map(
        (o) => `${o.method.toUpperCase()} ${o.path}: ${o.op.operationId} instead of ${o.refOp.operationId}`,
      );
    expect(problems).toEqual([]);
  });

  it('takes the same path and query parameters, with the same required flags and enums', () => {
    const problems: string[] = [];
    for (const o of shared) {
      const where = `${o.method.toUpperCase()} ${o.path}`;
      for (const kind of ['path', 'query'] as const) {
        const ref = paramsOf(reference, o.refOp, kind);
        const own = paramsOf(sandbox, o.op, kind);
        const refNames = [...ref.keys()].sort();
        const ownNames = [...own.keys()].sort();
        if (JSON.stringify(refNames) !== JSON.stringify(ownNames)) {
          problems.push(
            `${where}: ${kind} parameters ${JSON.stringify(ownNames)}, the reference has ${JSON.stringify(refNames)}`,
          );
        }
        for (const [name, param] of ref) {
          const mine = own.get(name);
          if (!mine) continue;
          if (mine.required !== param.required) {
            problems.push(
              `${where}: ${kind} parameter ${name} required=${mine.required}, the reference says ${param.required}`,
            );
          }
          compareEnums(reference, sandbox, param.schema, mine.schema, `${where} ${kind} ${name}`, problems);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('takes the same JSON request bodies (properties, required list, enums)', () => {
    const problems: string[] = [];
    for (const o of shared) {
      const where = `${o.method.toUpperCase()} ${o.path} body`;
      const refSchema = jsonSchemaOf(o.refOp.requestBody?.content);
      const ownSchema = jsonSchemaOf(o.op.requestBody?.content);
      if (!refSchema) {
        if (ownSchema) problems.push(`${where}: the reference takes no JSON body`);
        continue;
      }
      if (!ownSchema) {
        problems.push(`${where}: missing`);
        continue;
      }
      if ((o.refOp.requestBody.required === true) !== (o.op.requestBody.required === true)) {
        problems.push(
          `${where}: required=${o.op.requestBody.required === true}, the reference says ${o.refOp.requestBody.required === true}`,
        );
      }
      compareShapes(
        reference,
        sandbox,
        shapeOf(reference, refSchema),
        shapeOf(sandbox, ownSchema),
        where,
        problems,
      );
    }
    expect(problems).toEqual([]);
  });

  it('answers the same 200 bodies (properties, required list, enums) and the same success code', () => {
    const problems: string[] = [];
    for (const o of shared) {
      const where = `${o.method.toUpperCase()} ${o.path} 200`;
      const refSuccess = Object.keys(o.refOp.responses).filter((code) => code.startsWith('2'));
      const ownSuccess = Object.keys(o.op.responses).filter((code) => code.startsWith('2'));
      if (JSON.stringify(refSuccess.sort()) !== JSON.stringify(ownSuccess.sort())) {
        problems.push(
          `${o.method.toUpperCase()} ${o.path}: success ${ownSuccess}, the reference says ${refSuccess}`,
        );
      }
      const refSchema = jsonSchemaOf(o.refOp.responses['200']?.content);
      if (!refSchema) continue;
      const ownSchema = jsonSchemaOf(o.op.responses['200']?.content);
      if (!ownSchema) {
        problems.push(`${where}: no JSON body`);
        continue;
      }
      compareShapes(
        reference,
        sandbox,
        shapeOf(reference, refSchema),
        shapeOf(sandbox, ownSchema),
        where,
        problems,
      );
    }
    expect(problems).toEqual([]);
  });

  it('registers every schema the reference names for these operations, under the same name', () => {
    const names = new Set<string>();
    for (const o of shared) {
      for (const name of referencedNames(reference, o.refOp)) names.add(projectName(name));
    }
    const own = new Set(Object.keys(sandbox.components?.schemas ?? {}));
    expect([...names].filter((name) => !own.has(name)).sort()).toEqual([]);
    expect(names.size).toBeGreaterThan(0);
  });

  it('declares the MCP scopes of the reference, and none where the reference has none', () => {
    const problems = shared
      .filter((o) => JSON.stringify(mcpScopes(o.refOp)) !== JSON.stringify(mcpScopes(o.op)))
      .map(
        (o) =>
          `${o.method.toUpperCase()} ${o.path}: mcp_auth ${JSON.stringify(mcpScopes(o.op))}, the reference says ${JSON.stringify(mcpScopes(o.refOp))}`,
      );
    expect(problems).toEqual([]);
  });

  it('documents every served operation: operationId, tags, summary, a 401 answer where a token is needed', () => {
    const problems: string[] = [];
    const open = (o: Operation) =>
      (o.method === 'post' && o.path === '/token') ||
      o.path.startsWith('/docs') ||
      o.path.startsWith('/link') ||
      o.path === '/local-agents/releases' ||
      o.path.endsWith('.png');
    for (const o of served) {
      const where = `${o.method.toUpperCase()} ${o.path}`;
      if (typeof o.op.operationId !== 'string' || !o.op.operationId)
        problems.push(`${where}: no operationId`);
      if (!Array.isArray(o.op.tags) || o.op.tags.length === 0) problems.push(`${where}: no tags`);
      if (typeof o.op.summary !== 'string' || !o.op.summary.trim()) problems.push(`${where}: no summary`);
      if (!open(o) && !o.op.responses?.['401']) problems.push(`${where}: no 401 response`);
    }
    const ids = served.map((o) => o.op.operationId);
    const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
    if (repeated.length) problems.push(`operationIds used twice: ${repeated.join(', ')}`);
    expect(problems).toEqual([]);
  });
});
