import { describe, expect, it } from 'vitest';
import { canSee } from '../../src/platform/access.js';
import { scopesFor } from '../../src/platform/openapi.js';
import type { Principal } from '../../src/platform/tokens.js';

const consumer = { consumerid: 'c1', accountid: 'a1', envid: 'e1' };
const principal = (extra: Partial<Principal> = {}): Principal => ({
  kind: 'api',
  clientid: 'k1',
  accountid: 'a1',
  envid: 'e1',
  consumers: null,
  mcp: null,
  ...extra,
});

describe('canSee: which consumers a caller may see', () => {
  it.each([
    ['a key of the environment', principal(), true],
    ['a key of another account', principal({ accountid: 'a2' }), false],
    ['a key of the other environment', principal({ envid: 'e2' }), false],
    ['a key restricted to it', principal({ consumers: new Set(['c1']) }), true],
    ['a key restricted to others', principal({ consumers: new Set(['c2']) }), false],
    ['an MCP token bound to it', principal({ kind: 'mcp', mcp: { consumerid: 'c1', scopes: ['*'] } }), true],
    [
      'an MCP token bound to another',
      principal({ kind: 'mcp', mcp: { consumerid: 'c2', scopes: ['*'] } }),
      false,
    ],
  ])('%s: %s', (_name, caller, expected) => {
    expect(canSee(caller, consumer)).toBe(expected);
  });
});

describe('scopesFor: the MCP scopes an operation accepts', () => {
  it.each([
    [
      'banking',
      'transactions',
      'read',
      ['banking', 'banking.read', 'banking.transactions', 'banking.transactions.read'],
    ],
    ['accounting', 'invoices', 'write', ['accounting', 'accounting.invoices']],
    ['consumers', null, 'read', ['consumers', 'consumers.read']],
    ['consumers', null, 'write', ['consumers']],
  ] as const)('%s / %s / %s', (area, group, access, expected) => {
    expect(scopesFor(area, group, access)).toEqual(expected);
  });
});
