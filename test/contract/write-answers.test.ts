import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  EXAMPLE_PREREQUISITES,
  type RequestExample,
  requestExamples,
} from '../../src/surfaces/docs/examples.js';
import { type CallResult, call, SEED, sandbox, sandboxToken, type TestSandbox } from '../helpers.js';
import { answerProblems, type Json, type Schema } from './reference/openapi-facts.js';

/**
 * Every write of the published document (POST, PUT, PATCH, DELETE with a JSON answer), called with
 * a valid body (the request example the sandbox serves for it, read off a fresh seeded world) and
 * answered with the status the document gives it and a body its published schema takes: every
 * required field there, each of its type, no null where none is allowed, enums and formats kept, and
 * no field the schema does not name (a response model answers its own fields only). The published
 * answers are the facts scripts/reference-facts.ts reduced the reference to
 * (test/contract/reference/published-answers*.json).
 */

interface PublishedAnswers {
  answers: Record<string, { method: string; path: string; status: string; schema: Schema }>;
  schemas: Record<string, Schema>;
}

const read = (file: string): PublishedAnswers =>
  JSON.parse(readFileSync(new URL(`./reference/${file}`, import.meta.url), 'utf8')) as PublishedAnswers;
const published = [read('published-answers.json'), read('published-answers-newer.json')];
const ANSWERS = Object.assign({}, ...published.map((p) => p.answers)) as PublishedAnswers['answers'];
const DOCUMENT: Json = { components: { schemas: Object.assign({}, ...published.map((p) => p.schemas)) } };

/** The origin app.request() gives a request without one. */
const ORIGIN = 'http://localhost';

/** The path with its parameters filled in. */
const urlOf = (path: string, params: Record<string, string>) =>
  path.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? encodeURI(params[name] as string) : whole,
  );

/**
 * The writes that take no body, so have no request example: each undoes the one named, whose
 * example's path parameters it is called with, after it.
 */
const UNDOING: Record<string, string> = {
  datalayer_disable: 'datalayer_enable',
  syncs_disable_syncconsumer: 'syncs_enable_syncconsumer',
  datastores_delete_consumer_datastoredata: 'datastores_update_consumer_datastoredata',
};

async function sendExample(s: TestSandbox, token: string, operationId: string): Promise<RequestExample> {
  const first = EXAMPLE_PREREQUISITES[operationId] ?? UNDOING[operationId];
  if (first) {
    const made = await send(s, token, first);
    expect(made.status, `${first}: ${made.text.slice(0, 300)}`).toBeLessThan(300);
  }
  const examples = requestExamples(s.app.services, ORIGIN);
  const example = UNDOING[operationId]
    ? { body: undefined, params: examples[UNDOING[operationId] as string]?.params ?? {} }
    : examples[operationId];
  expect(example, `${operationId}: no request example`).toBeDefined();
  return example as RequestExample;
}

/** The example of an operation in a world, made after the record it works on when it needs one. */
async function send(s: TestSandbox, token: string, operationId: string): Promise<CallResult> {
  const answer = ANSWERS[operationId] as PublishedAnswers['answers'][string];
  const example = await sendExample(s, token, operationId);
  const url = urlOf(answer.path, example.params);
  expect(url, `${operationId}: a path parameter has no example`).not.toContain('{');
  return call(s.app, answer.method.toUpperCase(), url, { token, body: example.body });
}

/**
 * Fields an answer carries beyond its published schema, on purpose: the official Node client's own
 * tests read a payment's `date` (payment_date again), so the service answers it too.
 */
const BEYOND_THE_SCHEMA: Record<string, string[]> = {
  invoicing_create_payment: ['date'],
  invoicing_update_payment: ['date'],
};

const problemsOf = (operationId: string, body: unknown) => {
  const answer = ANSWERS[operationId] as PublishedAnswers['answers'][string];
  const beyond = new Set(
    (BEYOND_THE_SCHEMA[operationId] ?? []).map((key) => `${operationId}.${key}: not in the schema`),
  );
  return answerProblems(DOCUMENT, answer.schema, body, operationId, { extraKeys: true }).filter(
    (p) => !beyond.has(p),
  );
};

describe('the answer of every write, against its published schema', () => {
  it('covers the writes of the published document', () => {
    expect(Object.keys(ANSWERS).length).toBeGreaterThan(50);
  });

  it.each(Object.keys(ANSWERS).sort())('%s', async (operationId) => {
    const answer = ANSWERS[operationId] as PublishedAnswers['answers'][string];
    const s = sandbox({ seed: SEED });
    const res = await send(s, await sandboxToken(s), operationId);
    expect(String(res.status), res.text.slice(0, 600)).toBe(answer.status);
    expect(problemsOf(operationId, res.body)).toEqual([]);
  });

  it('the walk finds a field missing, null, of another type, outside its enum or format, or unknown', async () => {
    const s = sandbox({ seed: SEED });
    const res = await send(s, await sandboxToken(s), 'invoicing_post_invoices');
    expect(problemsOf('invoicing_post_invoices', res.body)).toEqual([]);
    const { currency: _dropped, ...broken } = structuredClone(res.body);
    Object.assign(broken, {
      invoice_type: 'receipt',
      invoice_date: `${res.body.invoice_date}T00:00:00`,
      total: String(res.body.total),
      source_ref: null,
      surprise: 1,
    });
    const at = 'invoicing_post_invoices';
    expect(problemsOf(at, broken).sort()).toEqual([
      `${at}.currency: required, missing`,
      `${at}.invoice_date: "${res.body.invoice_date}T00:00:00" is no date`,
      expect.stringMatching(new RegExp(`^${at}\\.invoice_type: "receipt" is none of \\["customer_invoice",`)),
      `${at}.source_ref: null`,
      `${at}.surprise: not in the schema`,
      `${at}.total: "${res.body.total}" is a JSON string, typed number`,
    ]);
  });
});
