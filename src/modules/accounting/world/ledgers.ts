import { addDays, dayNumber, isoDay, LAST_DAY } from '../../../lib/calendar.js';
import { NORMAL_PACE, type PaceOf } from '../../../lib/pace.js';
import { runAtOnce, type Sliced } from '../../../lib/slices.js';
import type { Integration } from '../../../platform/catalogue.js';
import { LEGACY_ORIGIN } from '../../../platform/seeding/dataset-seeder.js';
import type { WorldStore } from '../../../store/store.js';
import { countryOf } from '../model/accounting.profiles.js';
import {
  type LedgerBookYear,
  type LedgerFolder,
  type LedgerRecord,
  ledgerKey,
} from '../model/accounting.records.js';
import { liveLedgerDays } from './accounting.living.js';
import { seededLedger, seedFolders } from './accounting.seed.js';

/**
 * Where ledgers come from. The folders a consumer reaches through an integration, and the seeded
 * content of each, are a pure function of (seed, consumer, integration, folder): a ledger is built
 * and stored the first time its folder is used, and a lost one would be rebuilt identically.
 */

/** Integrations with features.multiple_folders reach this many folders; the others one. */
export const FOLDERS_OF_MULTI_FOLDER_INTEGRATIONS = 3;

/** Folder lists an app keeps at most; past it, the cache starts afresh. */
const MAX_CACHED_FOLDER_LISTS = 10_000;

/**
 * The folders of a consumer's accounting integration, companies of the integration's country (see
 * countryOf), memoized in the app's `cache` (they only depend on the ids).
 */
export function foldersOf(
  cache: Map<string, LedgerFolder[]>,
  seed: number,
  consumerid: string,
  integration: Integration,
): LedgerFolder[] {
  const key = `${seed}:${consumerid}:${integration.integrationid}`;
  let folders = cache.get(key);
  if (!folders) {
    const count = integration.features.multiple_folders ? FOLDERS_OF_MULTI_FOLDER_INTEGRATIONS : 1;
    folders = seedFolders(seed, consumerid, integration.integrationid, count, countryOf(integration));
    if (cache.size > MAX_CACHED_FOLDER_LISTS) cache.clear();
    cache.set(key, folders);
  }
  return folders;
}

/**
 * The book year that starts on `start` and lasts a year (to the eve of the same day a year later); one
 * that would end past the calendar's last year ends on the last day of year 9999.
 */
function bookYearFrom(start: string): LedgerBookYear {
  const next = Number(start.slice(0, 4)) + 1;
  const end = next > 9999 ? '9999-12-31' : addDays(`${String(next).padStart(4, '0')}${start.slice(4)}`, -1);
  return { name: start.slice(0, 4), start, end, closed: false };
}

/**
 * The book years a ledger lacks on `today` (the sandbox clock's day): a ledger holds its book years
 * up to the year of the day it was seeded; as the clock moves on, the software opens the next fiscal
 * year, open, each year in turn (a jump of several years opens each one). Empty when the ledger is up
 * to date. Dates after the clock's year stay outside every book year (ERROR_BOOKYEAR_NOT_FOUND).
 * The years are counted on epoch days, up to the calendar's last day at most.
 */
export function missingBookYears(ledger: LedgerRecord, today: string): LedgerBookYear[] {
  const missing: LedgerBookYear[] = [];
  const ends = ledger.bookyears.map((year) => dayNumber(year.end)).filter((end) => !Number.isNaN(end));
  if (ends.length === 0) return missing;
  const target = Math.min(dayNumber(today), LAST_DAY);
  for (let last = ends.reduce((a, b) => Math.max(a, b)); last < target; ) {
    const year = bookYearFrom(isoDay(last + 1));
    missing.push(year);
    last = dayNumber(year.end);
  }
  return missing;
}

/** Adds the book years the ledger lacks on `today`; returns how many. The caller commits. */
export function openBookYears(ledger: LedgerRecord, today: string): number {
  const missing = missingBookYears(ledger, today);
  ledger.bookyears.push(...missing);
  return missing.length;
}

/** The ledger of a folder: in memory, else built from the seed (see store.materialize). */
export function ledgerOf(
  store: WorldStore,
  consumerid: string,
  integration: Integration,
  folder: LedgerFolder,
): LedgerRecord {
  const { key, args } = ledgerRef(consumerid, integration, folder);
  return store.materialize<LedgerRecord>(LEDGERS, key, args);
}

/** The ledger of a folder as the store knows it: its key, and what it is built from. */
export function ledgerRef(consumerid: string, integration: Integration, folder: LedgerFolder) {
  const args: LedgerArgs = {
    consumerid,
    integrationid: integration.integrationid,
    unifiedPartners: integration.features.unified_partners,
    folder,
  };
  return { collection: LEDGERS, key: ledgerKey(consumerid, folder.id), args };
}

/** The world collection of the accounting folders' ledgers. */
export const LEDGERS = 'accounting_ledgers';

/** What an accounting folder's ledger is built from, besides the seed. */
export interface LedgerArgs {
  consumerid: string;
  integrationid: number;
  unifiedPartners: boolean;
  /** The folder, whose address's country is the ledger's profile (see accounting.profiles.ts). */
  folder: LedgerFolder;
  /**
   * The day its history ends (YYYY-MM-DD) when it is not the day of the world's origin: a ledger of
   * a world file written before worlds had an origin keeps the day it was first used.
   */
  until?: string;
}

/**
 * Builds one folder's ledger from the seed (the vertical module's `build`): its history up to the
 * morning of the origin's day, then the business of the days after it as it stands at `at` (the
 * clock's time to the minute: each document, payment and matching from its own instant) at the
 * world's pace, with the book years up to `at`'s day open (see accounting.living.ts).
 */
export function* ledgerBuild(
  seed: number,
  args: LedgerArgs,
  at?: string,
  pace: PaceOf = NORMAL_PACE,
  origin = LEGACY_ORIGIN,
): Sliced<LedgerRecord> {
  const until = args.until ?? origin.slice(0, 10);
  const seeded = seededLedger({ seed, ...args, until });
  openBookYears(seeded.seeder.ledger, (at ?? until).slice(0, 10));
  return yield* liveLedgerDays(seeded, at ?? until, pace);
}

/** ledgerBuild, at once. */
export const buildLedger = (...args: Parameters<typeof ledgerBuild>): LedgerRecord =>
  runAtOnce(ledgerBuild(...args));
