import { TOKEN_LIFETIME_SECONDS } from '../../platform/tokens.js';
import type { ReadinessReport } from './analyse.js';
import { type Call, plural } from './calls.js';
import type { Findings } from './findings.js';

/** The readiness report's reading of the client's tokens: how often it asks, and when it renews. */

/** A token renewed with more than this left was renewed too early (the SDKs renew 30 s before). */
const EARLY_RENEWAL_SECONDS = 5 * 60;
/** Renewals too early before the report says so (one is a restart). */
const EARLY_RENEWALS_FLAGGED = 2;

export function tokenHygiene(
  tokenCalls: Call[],
  apiCalls: Call[],
  findings: Findings,
): ReadinessReport['tokens'] {
  const issued = tokenCalls.filter((call) => call.record.status === 200);
  // Tokens per hour of sandbox time.
  const perHour = new Map<number, number>();
  for (const call of issued) {
    const hour = Math.floor(call.at / 3_600_000);
    perHour.set(hour, (perHour.get(hour) ?? 0) + 1);
  }
  // A client's new token while its previous one had more than EARLY_RENEWAL_SECONDS left.
  const lastIssued = new Map<string, number>();
  const early = new Map<string, Call[]>();
  for (const call of issued) {
    if (!call.client) continue;
    const previous = lastIssued.get(call.client);
    if (
      previous !== undefined &&
      previous + (TOKEN_LIFETIME_SECONDS - EARLY_RENEWAL_SECONDS) * 1000 > call.at
    ) {
      const list = early.get(call.client) ?? [];
      list.push(call);
      early.set(call.client, list);
    }
    lastIssued.set(call.client, call.at);
  }
  for (const [client, renewals] of early) {
    if (renewals.length < EARLY_RENEWALS_FLAGGED) continue;
    const requested = issued.filter((call) => call.client === client).length;
    const used = apiCalls.filter((call) => call.client === client).length;
    for (const call of renewals) {
      findings.add(
        'token_not_reused',
        { key: client },
        (count) =>
          `Client ${client} requested ${plural(requested, 'token')} for ${plural(used, 'API call')}; ${count} of them while the previous token had more than ${EARLY_RENEWAL_SECONDS / 60} minutes left.`,
        call.id,
      );
    }
  }
  // Requests sent with a token past its expiry (the API answered 401), and 401s not acted on.
  let expired = 0;
  const refused = new Map<string, Call>();
  for (const call of apiCalls) {
    if (call.claims && call.claims.exp * 1000 <= call.at) {
      expired += 1;
      findings.add(
        'expired_token_used',
        { key: call.client ?? '' },
        (count) =>
          `${plural(count, 'request')} of client ${call.client ?? '(unknown)'} carried a token past its expires_on.`,
        call.id,
      );
    }
    if (!call.token) continue;
    const earlier = refused.get(call.token);
    if (earlier && call.record.status === 401) {
      findings.add(
        'no_new_token_after_401',
        { key: call.client ?? '' },
        (count) =>
          `After a 401 (${earlier.id}), ${plural(count, 'more request')} of client ${call.client ?? '(unknown)'} sent the same token.`,
        call.id,
      );
    }
    if (call.record.status === 401) refused.set(call.token, call);
  }
  const distinct = new Set(apiCalls.flatMap((call) => (call.token ? [call.token] : [])));
  return {
    requested: issued.length,
    most_in_one_hour: Math.max(0, ...perHour.values()),
    distinct_used: distinct.size,
    expired_uses: expired,
  };
}
