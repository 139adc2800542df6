import {
  checkFields,
  holdsFileContent,
  MAX_FIELD_CHARS,
  MAX_RECORD_BYTES,
  RecordTooLargeError,
  type WorldQuota,
} from './bounds.js';
import { idOf, partsOf } from './dataset-cache.js';
import { type GeneratedEntry, type OverlayOp, overlayDelta } from './generated.js';
import type { RecordSizes } from './record-sizes.js';
import type { PathOp } from './unit-of-work.js';
import type { World } from './world.js';

/** Why a write was not kept: its change could not be serialized for the journal. */
export class UnstorableChangeError extends Error {
  constructor(cause: unknown) {
    super(`The change cannot be stored: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = 'UnstorableChangeError';
  }
}

/** A write's ops as the store keeps them: see changeOf. */
export interface Change {
  pieces: string[];
  overlays: Map<string, OverlayChanges>;
  sizes: Map<string, number>;
  used: number;
}

/** A write's changes of one generated dataset; `gone` when the write removed the dataset whole. */
export interface OverlayChanges {
  collection: string;
  key: string;
  ops: OverlayOp[];
  gone: boolean;
}

/** What a write's change is measured against: the store as the write found it. */
export interface ChangeBase {
  world: World;
  /** Whether the store has a journal (a file), whose pieces the change then holds. */
  journaled: boolean;
  sizes: RecordSizes;
  quota: WorldQuota;
  /** Whether a collection is generated (its records are datasets, kept as their changes). */
  isGenerated(collection: string): boolean;
  /** What the store keeps of the dataset at `collection[key]` that writes changed, if any. */
  entry(collection: string, key: string): GeneratedEntry | undefined;
}

/**
 * What a write's ops become: the journal's pieces (each value serialized once), the changes of
 * generated datasets, the new sizes of the records changed, and the bytes clients then hold. Throws
 * when a record is too large or the world would hold more than it may (unless `enforced` is false:
 * the sandbox's own bookkeeping); changes nothing itself. `before`: the sizes of the records the
 * write changed as it found them, for those no earlier write sized.
 */
export function changeOf(
  ops: readonly PathOp[],
  before: Map<string, number>,
  enforced: boolean,
  base: ChangeBase,
): Change {
  const { world, journaled, sizes: known } = base;
  const pieces: string[] = [];
  const overlays = new Map<string, OverlayChanges>();
  const records = new Set<string>();
  for (const op of ops) {
    const [collection, key] = op.p as [string, string | undefined];
    const generated = key !== undefined && base.isGenerated(collection);
    // Serialized once, and only for what needs it: the journal, and a generated dataset's changes
    // (a record's fields are checked on the record below, whose size is measured anyway).
    const json = 'v' in op && (journaled || generated) ? JSON.stringify(op.v) : undefined;
    if (journaled) pieces.push(`{"p":${JSON.stringify(op.p)}${json === undefined ? '' : `,"v":${json}`}}`);
    if (key === undefined) continue;
    if (generated) {
      if (json !== undefined && json.length > MAX_FIELD_CHARS && !known.isBoundedElsewhere(collection))
        checkFields(op.p, op.v);
      const id = idOf(collection, key);
      let changes = overlays.get(id);
      if (!changes) {
        changes = { collection, key, ops: [], gone: false };
        overlays.set(id, changes);
      }
      changes.ops.push(json === undefined ? { p: op.p.slice(2) } : { p: op.p.slice(2), j: json });
    } else {
      records.add(idOf(collection, key));
    }
  }
  let added = 0;
  const sizes = new Map<string, number>();
  for (const id of records) {
    const [collection, key] = partsOf(id);
    const record = (world as unknown as Record<string, Record<string, unknown>>)[collection]?.[key];
    const size = known.of(collection, record);
    const bounded = !known.isBoundedElsewhere(collection);
    if (bounded && size > MAX_FIELD_CHARS) checkFields([collection, key], record);
    if (bounded && size > MAX_RECORD_BYTES && !holdsFileContent(record))
      throw new RecordTooLargeError([collection, key], size, MAX_RECORD_BYTES);
    added += size - (known.get(id) ?? before.get(id) ?? 0);
    sizes.set(id, size);
  }
  for (const changes of overlays.values()) {
    const current = base.entry(changes.collection, changes.key);
    if (changes.ops.some((op) => op.p.length === 0 && op.j === undefined)) {
      changes.gone = true;
      added -= current?.bytes ?? 0;
      continue;
    }
    // The paths of one write never lie one below another: each change counts on its own.
    for (const op of changes.ops) added += overlayDelta(current, op);
  }
  const used = Math.max(0, (world.meta.client_bytes ?? 0) + added);
  if (added > 0 && enforced) base.quota.check(used);
  return { pieces, overlays, sizes, used };
}
