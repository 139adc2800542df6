import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import {
  CLIENT_ROUTE_MARKER,
  CLIENT_ROUTE_NOTE,
  NEWER_REFERENCE_MARKER,
  NEWER_REFERENCE_NOTE,
} from '../../src/lib/client-routes.js';
import { everyOperationDocument } from '../helpers.js';
import {
  type EnumFact,
  enumOf,
  type Json,
  jsonSchemaOf,
  mcpScopes,
  type NewerReferenceFacts,
  type Operation,
  type OperationFacts,
  operationsOf,
  paramsOf,
  type ReferenceFacts,
  type Schema,
  type Shape,
  type ShapeFact,
  shapeOf,
  successCodes,
  unwrap,
} from './reference/openapi-facts.js';

/**
 * The generated /openapi.json against the reference description of the real service, as reduced to
 * the facts compared here by scripts/reference-facts.ts (test/reference/facts.json). Every operation
 * the sandbox serves under a (method, path) of the reference is compared, so operations added later
 * are covered without touching this file; PLATFORM_OPERATIONS lists those that must be served now.
 * The operations a newer published version adds (test/reference/facts-newer.json) are served marked
 * as that version's and compared, by the same checks, with that version's facts.
 * Each check collects its mismatches and asserts the list is empty, so one run shows all of them.
 */

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

const FACTS_FILE = new URL('./reference/facts.json', import.meta.url);
const NEWER_FACTS_FILE = new URL('./reference/facts-newer.json', import.meta.url);

/** The project's names for the reference's schema names. */
const projectName = (name: string) =>
  name
    .replace(/^ChiftError$/, 'ServiceError')
    .replace(/^ChiftId$/, 'ServiceId')
    .replace(/^ChiftPage_/, 'ServicePage_');

/** Compares the top level of a reference schema with the sandbox's; pushes each difference. */
function compareShapes(sandbox: Json, ref: ShapeFact, own: Shape, where: string, out: string[]): void {
  if (ref.kind === 'other') return;
  if (ref.kind !== own.kind) {
    out.push(`${where}: the reference has ${ref.kind}, the sandbox ${own.kind}`);
    return;
  }
  if (ref.kind === 'array' && own.kind === 'array') {
    compareShapes(sandbox, ref.items, own.items, `${where}[]`, out);
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
      compareShapes(sandbox, variant, own.variants[i] as Shape, `${where}|${i}`, out);
    });
    return;
  }
  if (ref.kind !== 'object' || own.kind !== 'object') return;
  const missing = ref.properties.filter((name) => !(name in own.properties));
  if (missing.length) out.push(`${where}: properties missing: ${missing.join(', ')}`);
  if (JSON.stringify(ref.required) !== JSON.stringify(own.required)) {
    out.push(
      `${where}: required ${JSON.stringify(own.required)}, the reference says ${JSON.stringify(ref.required)}`,
    );
  }
  for (const name of ref.properties) {
    compareEnums(sandbox, ref.enums?.[name] ?? {}, own.properties[name], `${where}.${name}`, out);
  }
}

/** The reference's enum (or its items' enum, for an array) against the sandbox's schema. */
function compareEnums(
  sandbox: Json,
  ref: EnumFact,
  ownSchema: Schema | undefined,
  where: string,
  out: string[],
): void {
  if (ownSchema === undefined) return;
  let expected: string[] | undefined;
  let served: string[] | undefined;
  if (ref.enum) {
    expected = ref.enum;
    served = enumOf(sandbox, ownSchema);
  } else if (ref.itemsEnum) {
    expected = ref.itemsEnum;
    served = enumOf(sandbox, unwrap(sandbox, ownSchema).items);
  }
  if (expected === undefined) return;
  if (JSON.stringify(expected) !== JSON.stringify(served)) {
    out.push(`${where}: enum ${JSON.stringify(served)}, the reference says ${JSON.stringify(expected)}`);
  }
}

describe('contract: the served documents against the reference', () => {
  let reference: ReferenceFacts;
  let newer: NewerReferenceFacts;
  let sandbox: Json;
  let served: Operation[];
  /** Served operations that the reference also has, with the reference's facts of the operation. */
  let shared: (Operation & { refOp: OperationFacts })[];
  /** Served operations marked as the newer version's that it has, with its facts of the operation. */
  let newerShared: (Operation & { refOp: OperationFacts })[];
  /** Every operation compared: those of the reference and those of the newer version. */
  let compared: (Operation & { refOp: OperationFacts })[];

  beforeAll(async () => {
    reference = JSON.parse(readFileSync(FACTS_FILE, 'utf8')) as ReferenceFacts;
    newer = JSON.parse(readFileSync(NEWER_FACTS_FILE, 'utf8')) as NewerReferenceFacts;
    // Both served documents: the published operations (/openapi.json, whose names and order
    // test/command-tree.test.ts compares) and what the sandbox adds (/__sandbox/openapi.json).
    sandbox = await everyOperationDocument(createApp());
    served = operationsOf(sandbox);
    const byRoute = new Map(reference.operations.map((f) => [`${f.method} ${f.path}`, f]));
    shared = served.flatMap((o) => {
      const refOp = byRoute.get(`${o.method} ${o.path}`);
      return refOp ? [{ ...o, refOp }] : [];
    });
    const newerByRoute = new Map(newer.operations.map((f) => [`${f.method} ${f.path}`, f]));
    newerShared = served.flatMap((o) => {
      const refOp = o.op[NEWER_REFERENCE_MARKER] ? newerByRoute.get(`${o.method} ${o.path}`) : undefined;
      return refOp ? [{ ...o, refOp }] : [];
    });
    compared = [...shared, ...newerShared];
  });

  it('reads the facts of the whole reference, and of what the newer version adds to it', () => {
    expect(reference.operations).toHaveLength(reference.reference.operations);
    expect(reference.operations.length).toBeGreaterThanOrEqual(PLATFORM_OPERATIONS.length);
    expect(newer.operations).toHaveLength(newer.reference.operations);
    expect(newer.reference.newerThan).toEqual({
      file: reference.reference.file,
      sha256: reference.reference.sha256,
    });
    const inReference = new Set(reference.operations.map((f) => `${f.method} ${f.path}`));
    expect(newer.operations.filter((f) => inReference.has(`${f.method} ${f.path}`))).toEqual([]);
    expect(newer.reference.version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('serves the platform operations', () => {
    const ids = new Set(served.map((o) => o.op.operationId));
    expect(PLATFORM_OPERATIONS.filter((id) => !ids.has(id))).toEqual([]);
  });

  it('serves every platform operation under the method and path of the reference', () => {
    const refIds = new Map(reference.operations.map((f) => [f.operationId, f]));
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
    const problems = compared
      .filter((o) => o.op.operationId !== o.refOp.operationId)
      .map(
        (o) => `${o.method.toUpperCase()} ${o.path}: ${o.op.operationId} instead of ${o.refOp.operationId}`,
      );
    expect(problems).toEqual([]);
  });

  it('takes the same path and query parameters, with the same required flags and enums', () => {
    const problems: string[] = [];
    for (const o of compared) {
      const where = `${o.method.toUpperCase()} ${o.path}`;
      for (const kind of ['path', 'query'] as const) {
        const ref = o.refOp.parameters.filter((p) => p.in === kind);
        const own = paramsOf(sandbox, o.op, kind);
        const refNames = ref.map((p) => p.name).sort();
        const ownNames = [...own.keys()].sort();
        if (JSON.stringify(refNames) !== JSON.stringify(ownNames)) {
          problems.push(
            `${where}: ${kind} parameters ${JSON.stringify(ownNames)}, the reference has ${JSON.stringify(refNames)}`,
          );
        }
        for (const param of ref) {
          const mine = own.get(param.name);
          if (!mine) continue;
          if (mine.required !== param.required) {
            problems.push(
              `${where}: ${kind} parameter ${param.name} required=${mine.required}, the reference says ${param.required}`,
            );
          }
          compareEnums(sandbox, param, mine.schema, `${where} ${kind} ${param.name}`, problems);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('takes the same JSON request bodies (properties, required list, enums)', () => {
    const problems: string[] = [];
    for (const o of compared) {
      const where = `${o.method.toUpperCase()} ${o.path} body`;
      const refBody = o.refOp.requestBody;
      const ownSchema = jsonSchemaOf(o.op.requestBody?.content);
      if (!refBody) {
        if (ownSchema) problems.push(`${where}: the reference takes no JSON body`);
        continue;
      }
      if (!ownSchema) {
        problems.push(`${where}: missing`);
        continue;
      }
      if (refBody.required !== (o.op.requestBody.required === true)) {
        problems.push(
          `${where}: required=${o.op.requestBody.required === true}, the reference says ${refBody.required}`,
        );
      }
      compareShapes(sandbox, refBody.shape, shapeOf(sandbox, ownSchema), where, problems);
    }
    expect(problems).toEqual([]);
  });

  it('answers the same 200 bodies (properties, required list, enums) and the same success code', () => {
    const problems: string[] = [];
    for (const o of compared) {
      const where = `${o.method.toUpperCase()} ${o.path} 200`;
      const refSuccess = o.refOp.success;
      const ownSuccess = successCodes(o.op);
      if (JSON.stringify(refSuccess) !== JSON.stringify(ownSuccess)) {
        problems.push(
          `${o.method.toUpperCase()} ${o.path}: success ${ownSuccess}, the reference says ${refSuccess}`,
        );
      }
      if (!o.refOp.response) continue;
      const ownSchema = jsonSchemaOf(o.op.responses['200']?.content);
      if (!ownSchema) {
        problems.push(`${where}: no JSON body`);
        continue;
      }
      compareShapes(sandbox, o.refOp.response, shapeOf(sandbox, ownSchema), where, problems);
    }
    expect(problems).toEqual([]);
  });

  it('registers every schema the reference names for these operations, under the same name', () => {
    const names = new Set<string>();
    for (const o of compared) {
      for (const name of o.refOp.schemas) names.add(projectName(name));
    }
    const own = new Set(Object.keys(sandbox.components?.schemas ?? {}));
    expect([...names].filter((name) => !own.has(name)).sort()).toEqual([]);
    expect(names.size).toBeGreaterThan(0);
  });

  it('declares the MCP scopes of the reference, and none where the reference has none', () => {
    const problems = compared
      .filter((o) => JSON.stringify(o.refOp.mcpScopes) !== JSON.stringify(mcpScopes(o.op)))
      .map(
        (o) =>
          `${o.method.toUpperCase()} ${o.path}: mcp_auth ${JSON.stringify(mcpScopes(o.op))}, the reference says ${JSON.stringify(o.refOp.mcpScopes)}`,
      );
    expect(problems).toEqual([]);
  });

  it('serves beyond the reference only its own operations, deprecated ones, marked client routes and marked operations of the newer version', () => {
    // What the sandbox serves under no (method, path) of the reference: its own operations
    // (operationId sandbox_...), the service's deprecated shapes, the routes the official clients
    // call (marked), and the operations a newer published version adds (marked with that version's
    // date, compared above with its facts). A marked route that the reference comes to describe must
    // lose its marker, and be compared.
    const inReference = new Set(reference.operations.map((f) => `${f.method} ${f.path}`));
    const inNewer = new Set(newer.operations.map((f) => `${f.method} ${f.path}`));
    const problems: string[] = [];
    let marked = 0;
    for (const o of served) {
      const where = `${o.method.toUpperCase()} ${o.path}`;
      const newerVersion = o.op[NEWER_REFERENCE_MARKER];
      if (newerVersion !== undefined) {
        if (inReference.has(`${o.method} ${o.path}`))
          problems.push(`${where}: in the reference, yet marked newer`);
        if (!inNewer.has(`${o.method} ${o.path}`)) {
          problems.push(`${where}: marked as of ${newerVersion}, which does not add it`);
        }
        if (newerVersion !== newer.reference.version) {
          problems.push(
            `${where}: marked as of ${newerVersion}, the newer version is ${newer.reference.version}`,
          );
        }
        if (o.op[CLIENT_ROUTE_MARKER] !== undefined)
          problems.push(`${where}: marked both newer and client route`);
        if (!String(o.op.description ?? '').includes(`${NEWER_REFERENCE_NOTE} ${newer.reference.version}`)) {
          problems.push(`${where}: marked newer, without saying from which version the service describes it`);
        }
        continue;
      }
      const isClientRoute = o.op[CLIENT_ROUTE_MARKER] === true;
      if (isClientRoute) {
        marked += 1;
        if (inReference.has(`${o.method} ${o.path}`)) problems.push(`${where}: in the reference, yet marked`);
        if (!String(o.op.description ?? '').includes(CLIENT_ROUTE_NOTE)) {
          problems.push(`${where}: marked, without saying that the official clients call it`);
        }
        continue;
      }
      if (inReference.has(`${o.method} ${o.path}`)) continue;
      if (String(o.op.operationId).startsWith('sandbox_') || o.op.deprecated === true) continue;
      problems.push(`${where}: neither in the reference nor marked (${o.op.operationId})`);
    }
    expect(problems).toEqual([]);
    expect(marked).toBeGreaterThan(0);
    // Every operation of the reference is served, under its method and path; so is every operation
    // the newer version adds, marked.
    expect(shared).toHaveLength(reference.reference.operations);
    expect(newerShared).toHaveLength(newer.reference.operations);
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
