import { messages } from './errors.js';

/**
 * Path patterns, shared by the request journal's filter and the faults' match.
 *
 * `*` alone matches every path; otherwise the pattern is split on `/`: a segment `{name}` matches
 * exactly one segment, a segment `*` one or more segments, any other segment itself
 * (case-insensitively).
 *
 * The patterns come from callers and the paths from anyone who can send a request (a path may hold
 * thousands of segments), and the journal runs one pattern over its 10,000 paths while other requests
 * wait. So matching is linear in the length of the path, whatever the pattern: a `*` is one segment
 * followed by a gap of zero or more, and the pattern is the chunks of fixed length between its gaps.
 * Without a gap, the path is compared token by token. Otherwise the first chunk is anchored at the
 * start and the last at the end, and each chunk in between is found at its leftmost place after the
 * previous one: taking the earliest place never loses a match, since it leaves the most room to what
 * follows, so nothing is ever tried twice. A chunk is searched with a bit-parallel automaton (Shift-And)
 * that reads each segment once, hence the bound on a pattern's segments: a chunk fits in 32 bits.
 */

/** Most segments of a pattern (its slashes): real API paths have at most a dozen. */
export const MAX_PATTERN_SEGMENTS = 32;

export type PathMatcher = (path: string) => boolean;

/** A segment of a compiled pattern: a literal, lower-cased, or null for any one segment. */
type Slot = string | null;

interface Literal {
  text: string;
  /** The slots of the chunk this literal fills, one bit per slot. */
  mask: number;
}

/** A run of slots between two gaps. */
interface Chunk {
  slots: Slot[];
  /** The bits of the slots that take any segment. */
  any: number;
  /** The distinct literals of the chunk by their length: a segment is compared to those of its own. */
  byLength: (Literal[] | undefined)[];
}

/** Why a pattern is refused (the message of the 422), or null when it is well formed. */
export function pathPatternProblem(pattern: string): string | null {
  if (pattern === '*') return null;
  if (!pattern.startsWith('/')) return messages.pathPatternInvalid;
  if (countSegments(pattern) > MAX_PATTERN_SEGMENTS) return messages.pathPatternTooLong(MAX_PATTERN_SEGMENTS);
  const wellFormed = pattern.split('/').every((segment) => {
    const inner = segment.startsWith('{') && segment.endsWith('}') ? segment.slice(1, -1) : segment;
    return inner.length > 0 || segment.length === 0 ? !/[{}]/.test(inner) : false;
  });
  return wellFormed ? null : messages.pathPatternInvalid;
}

/** A schema's refinement: refuses a malformed or too long pattern with its reason (a 422). */
export function checkPathPattern(
  pattern: string,
  ctx: { addIssue(issue: { code: 'custom'; message: string }): void },
): void {
  const problem = pathPatternProblem(pattern);
  if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
}

/**
 * Whether a pattern is well formed: it starts with `/` (or is `*`), with no empty placeholder, and
 * has at most MAX_PATTERN_SEGMENTS segments.
 */
export function isPathPattern(pattern: string): boolean {
  return pathPatternProblem(pattern) === null;
}

/** The slashes of a pattern, counted without splitting it (it may be long when given in code). */
function countSegments(pattern: string): number {
  let count = 0;
  for (let at = pattern.indexOf('/'); at !== -1; at = pattern.indexOf('/', at + 1)) {
    count += 1;
    if (count > MAX_PATTERN_SEGMENTS) break;
  }
  return count;
}

/**
 * The matcher of a pattern. A pattern past MAX_PATTERN_SEGMENTS throws a RangeError (the endpoints
 * refuse it first with a 422); one that is not well formed otherwise still compiles, and is compared
 * as written.
 */
export function compilePathPattern(pattern: string): PathMatcher {
  if (pattern === '*') return () => true;
  if (countSegments(pattern) > MAX_PATTERN_SEGMENTS) {
    throw new RangeError(messages.pathPatternTooLong(MAX_PATTERN_SEGMENTS));
  }
  const runs: Slot[][] = [[]];
  for (const segment of pattern.split('/')) {
    const run = runs[runs.length - 1] as Slot[];
    if (segment === '*') {
      run.push(null);
      runs.push([]);
    } else if (segment.length > 2 && segment.startsWith('{') && segment.endsWith('}')) {
      run.push(null);
    } else {
      run.push(segment.toLowerCase());
    }
  }
  const chunks = runs.map(toChunk);
  const first = chunks[0] as Chunk;
  if (chunks.length === 1) {
    return (path) => {
      const lower = path.toLowerCase();
      return matchAt(first, lower, 0) === lower.length + 1;
    };
  }
  const last = chunks[chunks.length - 1] as Chunk;
  const middle = chunks.slice(1, -1);
  return (path) => {
    const lower = path.toLowerCase();
    let cursor = matchAt(first, lower, 0);
    if (cursor < 0) return false;
    const tail = startOfLast(lower, last.slots.length);
    if (tail < cursor) return false;
    for (const chunk of middle) {
      cursor = findChunk(chunk, lower, cursor, tail);
      if (cursor < 0) return false;
    }
    return matchAt(last, lower, tail) !== -1;
  };
}

function toChunk(slots: Slot[]): Chunk {
  let any = 0;
  const byLength: (Literal[] | undefined)[] = [];
  slots.forEach((slot, index) => {
    const bit = 1 << index;
    if (slot === null) {
      any |= bit;
      return;
    }
    const bucket = byLength[slot.length] ?? [];
    byLength[slot.length] = bucket;
    const known = bucket.find((literal) => literal.text === slot);
    if (known) known.mask |= bit;
    else bucket.push({ text: slot, mask: bit });
  });
  return { slots, any, byLength };
}

/*
 * Positions in a path are those of its segments: a segment starts at 0 or after a `/` and ends at the
 * next `/` or at the end; `length + 1` stands past the last segment (nothing left).
 */

/** The end of a segment that starts at `start`. */
function segmentEnd(path: string, start: number): number {
  const end = path.indexOf('/', start);
  return end === -1 ? path.length : end;
}

/** Compares the chunk with the segments from `start`: where the next segment starts, or -1. */
function matchAt(chunk: Chunk, path: string, start: number): number {
  let cursor = start;
  for (const slot of chunk.slots) {
    if (cursor > path.length) return -1;
    const end = segmentEnd(path, cursor);
    if (slot !== null && (end - cursor !== slot.length || !path.startsWith(slot, cursor))) return -1;
    cursor = end + 1;
  }
  return cursor;
}

/** Where the last `count` segments start (`length + 1` for none), or -1 when the path has fewer. */
function startOfLast(path: string, count: number): number {
  let start = path.length + 1;
  for (let i = 0; i < count; i++) {
    if (start === 0) return -1;
    start = start >= 2 ? path.lastIndexOf('/', start - 2) + 1 : 0;
  }
  return start;
}

/** The slots a segment fills in the chunk, one bit each. */
function slotsOf(chunk: Chunk, path: string, start: number, end: number): number {
  const length = end - start;
  const bucket = length < chunk.byLength.length ? chunk.byLength[length] : undefined;
  if (bucket) {
    for (const literal of bucket) {
      if (path.startsWith(literal.text, start)) return chunk.any | literal.mask;
    }
  }
  return chunk.any;
}

/**
 * The leftmost place of the chunk among the segments that start in [from, limit), by Shift-And: bit i
 * of `state` says the last i + 1 segments read match the chunk's first i + 1 slots. Returns where the
 * segment after the place starts, or -1.
 */
function findChunk(chunk: Chunk, path: string, from: number, limit: number): number {
  // At most MAX_PATTERN_SEGMENTS slots: the segment before the first slash is in the first chunk.
  const goal = 1 << (chunk.slots.length - 1);
  let state = 0;
  let cursor = from;
  while (cursor < limit) {
    const end = segmentEnd(path, cursor);
    state = ((state << 1) | 1) & slotsOf(chunk, path, cursor, end);
    cursor = end + 1;
    if ((state & goal) !== 0) return cursor;
  }
  return -1;
}
