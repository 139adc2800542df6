import { addDays } from '../lib/calendar.js';
import { own } from '../lib/own.js';
import type { ConnectionRecord, World } from '../store/world.js';
import type { ApiName, Integration } from './catalogue.js';
import type { Services } from './context.js';
import { round2 } from './seeding/vertical-data.js';

/**
 * The kit the request body examples of the served documents are written against: each vertical
 * declares the examples of its operations in its module (`examples`, see vertical-module.ts),
 * surfaces/docs/examples.ts those of the platform's groups, and both build them from the world
 * through the ExampleWorld below, which the docs implement (it needs the /docs prefill, a surface's).
 *
 * An example is sent as it stands by the seeded sandbox key, with its path parameters, to the world
 * it was read from, and the sandbox accepts it: ids are never made up, each comes from the world,
 * read through the domain and dataset functions the routes use. Reading a dataset builds it when it
 * was never used, as the first GET of it would, so no answer changes.
 */

/** What an example's build gives: its body, and the path parameters it goes with. */
export interface Built {
  body: unknown;
  /** Path parameters besides consumer_id. */
  params?: Record<string, string>;
  /** Another consumer than the one /docs prefills for the path (a custom connector's). */
  consumer?: string;
}

/** One operation's example, by its operationId: the path it is served at, and how it is read. */
export interface ExampleSpec {
  path: string;
  /**
   * The example read off the world; undefined, or a MissingRecord thrown (see `need`), when the
   * world lacks what it needs: the operation then has no example, the others still do.
   */
  build: (w: ExampleWorld) => Built | undefined;
}

/** A consumer's active connection of a One API, and the integration behind it, as the routes resolve them. */
export interface ExampleScope {
  consumerid: string;
  connection: ConnectionRecord;
  integration: Integration;
}

/** The world as the examples read it, once per reading of all of them. */
export interface ExampleWorld {
  readonly services: Services;
  /** The origin the documents are served at. */
  readonly origin: string;
  readonly world: World;
  /** The sandbox clock's day. */
  readonly today: string;
  /** The seeded sandbox key's account and environment (what the prefilled key reaches). */
  readonly environment: { accountid: string; envid: string };
  /** The consumer /docs prefills for a path: that of the segment after /consumers/{consumer_id}. */
  consumerFor(path: string): string | undefined;
  /** The prefilled consumer of a segment with its active connection of the One API. */
  scope(segment: string, api: ApiName): ExampleScope;
  /** A consumer's active connection of a One API, as its operations pick it (the newest). */
  scopeOf(consumerid: string, api: ApiName): ExampleScope;
  /**
   * `make()` the first time `key` is asked for, its value afterwards: a ledger or dataset is read
   * once however many examples name it. Verticals start their keys with their own key.
   */
  once<T>(key: string, make: () => T): T;
}

/** The world lacks a record an example needs: that operation has no example. */
export class MissingRecord extends Error {}

/** The value, or a MissingRecord naming `what` when the world has none. */
export const need = <T>(value: T | undefined | null, what: string): T => {
  if (value === undefined || value === null) throw new MissingRecord(what);
  return value;
};

// ---------------------------------------------------------------------------------------------------
// What a vertical's examples let the platform's examples read of its data.

/**
 * Some examples of the platform's groups name a vertical's records: a token for its consumer, a
 * datalayer on its connection, the fault and the fixture of its operations, a sync's mapping of one
 * vertical's codes to another's. They read them through the vertical's own readings (its examples
 * set them, see verticalExamples), found in the app's module list (readingsOf): so they read them as
 * the vertical's examples do, in the same order, and import no vertical.
 */
export interface ExampleReadings {
  /** The scope the vertical's examples work in (the prefilled consumer of its segment), its data read. */
  scope?(w: ExampleWorld): ExampleScope;
  /** A sync's mapping of tax rates: the rates of a consumer's active taxes. */
  taxRates?(w: ExampleWorld, consumerid: string): number[];
  /** A sync's mapping of tax rates to VAT codes: the consumer's national sale VAT code of a rate. */
  saleVatCodes?(w: ExampleWorld, consumerid: string): (rate: number) => string | undefined;
}

/** Where a vertical's examples keep its readings: a symbol, so that the operations' entries are all there is to iterate. */
/** A vertical's examples (its module's `examples`): the specs by operationId, and its readings. */
export interface VerticalExamples {
  readonly specs: Readonly<Record<string, ExampleSpec>>;
  readonly readings: ExampleReadings;
}

/** The examples of a vertical's operations, by operationId, with what the platform's may read of it. */
export const verticalExamples = (
  specs: Record<string, ExampleSpec>,
  readings: ExampleReadings = {},
): VerticalExamples => ({ specs, readings });

/** The readings of the app's vertical of a One API (none when the app has no such vertical). */
export function readingsOf(services: Services, api: ApiName): ExampleReadings {
  return services.verticals.find((m) => m.api === api)?.examples?.readings ?? {};
}

// ---------------------------------------------------------------------------------------------------
// What examples of several groups write.

/** A one-page PDF (base64), what the attachment and upload operations take. */
export const EXAMPLE_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
).toString('base64');

export { addDays };

/** `candidate` when `taken` does not hold it, else the first of `candidate`2, `candidate`3... it lacks. */
export function freeName(taken: (name: string) => boolean, candidate: string): string {
  if (!taken(candidate)) return candidate;
  for (let n = 2; ; n++) if (!taken(`${candidate}${n}`)) return `${candidate}${n}`;
}

/** The lines of an invoice at one VAT code, with its amounts as the ledger checks them. */
export function invoiceAmounts(rate: number, lines: { quantity: number; unit_price: number }[]) {
  const computed = lines.map(({ quantity, unit_price }) => {
    const untaxed = round2(quantity * unit_price);
    const tax = round2((untaxed * rate) / 100);
    return {
      quantity,
      unit_price,
      untaxed_amount: untaxed,
      tax_rate: rate,
      tax_amount: tax,
      total: round2(untaxed + tax),
    };
  });
  const untaxed = round2(computed.reduce((t, l) => t + l.untaxed_amount, 0));
  const tax = round2(computed.reduce((t, l) => t + l.tax_amount, 0));
  return { lines: computed, untaxed_amount: untaxed, tax_amount: tax, total: round2(untaxed + tax) };
}

/** The records a connection's custom paths hold, by path then id (none in the seeded world). */
function customRecords(
  w: ExampleWorld,
  connection: ConnectionRecord,
): Record<string, Record<string, unknown>> {
  const holders = (
    w.world as { custom_records?: Record<string, { collections?: Record<string, Record<string, unknown>> }> }
  ).custom_records;
  return (holders && own(holders, connection.connectionid)?.collections) ?? {};
}

/** The id a new record of a custom path takes: the first of PREFIX-1, PREFIX-2... the path lacks. */
function freeCustomId(w: ExampleWorld, connection: ConnectionRecord, path: string, prefix: string): string {
  const records = own(customRecords(w, connection), path) ?? {};
  let n = 1;
  while (own(records, `${prefix}-${n}`)) n += 1;
  return `${prefix}-${n}`;
}

/** A POST to a custom path: the body keeps its own id, so that the record is easy to name after. */
export function customPost(
  w: ExampleWorld,
  connection: ConnectionRecord,
  path: string,
  prefix: string,
  fields: Record<string, unknown>,
): Built {
  return {
    body: { id: freeCustomId(w, connection, path, prefix), ...fields },
    params: { custom_path: path },
  };
}

/**
 * A PATCH of a record of a custom path: the newest one the path holds, else the one its POST example
 * creates (see EXAMPLE_PREREQUISITES of surfaces/docs/examples.ts).
 */
export function customPatch(
  w: ExampleWorld,
  connection: ConnectionRecord,
  path: string,
  prefix: string,
  fields: Record<string, unknown>,
): Built {
  const held = Object.keys(own(customRecords(w, connection), path) ?? {});
  const id = held.at(-1) ?? freeCustomId(w, connection, path, prefix);
  return { body: fields, params: { custom_path: `${path}/${id}` } };
}
