import { beforeEach, describe, expect, it } from 'vitest';
import { errors } from '../../../src/lib/errors.js';
import {
  call,
  expectError,
  expectValidation,
  sandbox,
  sandboxToken,
  type TestSandbox,
  tokenFor,
} from '../../helpers.js';

let s: TestSandbox;
let token: string;

beforeEach(async () => {
  s = sandbox();
  token = await sandboxToken(s);
});

const line = { type: 'info', message: 'hello', context: { a: 1 } };

describe('POST /consumers/{consumer_id}/logs', () => {
  it('records the lines, linked to an execution of the consumer when the header names one', async () => {
    const consumer = s.ids.syncConsumerId;
    const plain = await call(s.app, 'POST', `/consumers/${consumer}/logs`, { token, body: [line] });
    expect(plain.status).toBe(200);
    expect(plain.body).toEqual({ status: 'success', message: '1 log lines recorded', data: { count: 1 } });
    const execution = Object.values(s.app.services.store.world.executions).find(
      (e) => e.consumerid === consumer,
    );
    expect(execution).toBeDefined();
    const linked = await call(s.app, 'POST', `/consumers/${consumer}/logs`, {
      token,
      body: [{ ...line, message: 'linked' }],
      headers: { 'x-chift-relatedchainexecutionid': execution?.executionid as string },
    });
    expect(linked.status).toBe(200);
    const all = await call(s.app, 'GET', `/__sandbox/logs?consumerid=${consumer}`);
    expect(
      all.body.map((l: { message: string; related_executionid: string | null }) => [
        l.message,
        l.related_executionid,
      ]),
    ).toEqual([
      ['linked', execution?.executionid],
      ['hello', null],
    ]);
    const byExecution = await call(s.app, 'GET', `/__sandbox/logs?executionid=${execution?.executionid}`);
    expect(byExecution.body).toHaveLength(1);
  });

  it('refuses an execution that is not the consumer’s, a missing consumer, another account, and bad bodies', async () => {
    const consumer = s.ids.syncConsumerId;
    const other = Object.values(s.app.services.store.world.executions).find((e) => e.consumerid !== consumer);
    expectError(
      await call(s.app, 'POST', `/consumers/${consumer}/logs`, {
        token,
        body: [line],
        headers: {
          'x-chift-relatedchainexecutionid': other?.executionid ?? '00000000-0000-4000-8000-000000000009',
        },
      }),
      errors.executionNotFound(),
    );
    expectError(
      await call(s.app, 'POST', '/consumers/00000000-0000-4000-8000-000000000000/logs', {
        token,
        body: [line],
      }),
      errors.consumerNotFound(),
    );
    const otherAccount = await tokenFor(s.app, s.ids.otherAccount);
    expectError(
      await call(s.app, 'POST', `/consumers/${consumer}/logs`, { token: otherAccount, body: [line] }),
      errors.consumerNotFound(),
    );
    expectValidation(
      await call(s.app, 'POST', `/consumers/${consumer}/logs`, { token, body: line }),
      ['body'],
      'list_type',
    );
    expectValidation(
      await call(s.app, 'POST', `/consumers/${consumer}/logs`, { token, body: [{ type: 'info' }] }),
      ['body', 0, 'message'],
      'missing',
    );
    expect(Object.keys(s.app.services.store.world.execution_logs)).toEqual([]);
  });
});
