import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openWorldFile, seedWorld } from '../../src/control/seeded-world.js';
import { StoreFileError } from '../../src/store/store.js';
import { runCli } from '../cli/helpers.js';

/**
 * A world file and its journals are input like any other: every line is parsed with its schema, and a
 * file that does not pass is refused (and left untouched) with one line naming the file, the line and
 * the field. Only a journal's last line may be torn (a crash before its write was acknowledged).
 */

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A world file of the seed, written and closed: its lines. */
async function worldFile(): Promise<{ file: string; lines: string[] }> {
  dir = mkdtempSync(join(tmpdir(), 'world-lines-'));
  const file = join(dir, 'world.json');
  const store = await openWorldFile(file, () => seedWorld(3));
  await store.close();
  return { file, lines: readFileSync(file, 'utf8').trimEnd().split('\n') };
}

async function refusal(file: string): Promise<string> {
  const error = await openWorldFile(file, () => seedWorld(3)).then(
    async (store) => {
      await store.close();
      return null;
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StoreFileError);
  return (error as Error).message;
}

const recordLine = (lines: string[]) => lines.findIndex((line) => line.startsWith('{"c":"consumers"'));
/** Adds a generated dataset's line before the last (whose count grows by one): gives its index. */
function withDataset(lines: string[], dataset: object): number {
  const end = lines.length - 1;
  const count = (JSON.parse(lines[end] as string) as { records: number }).records;
  const line = JSON.stringify({ c: 'pos_datasets', k: 'c:k', ...dataset });
  lines.splice(end, 1, line, `{"end":true,"records":${count + 1}}`);
  return end;
}

describe('a world file read back', () => {
  it.each([
    [
      'a head whose meta is not an object',
      (l: string[]) => [0, l[0]?.replace(/"meta":\{/, '"meta":7,"x":{')],
      'field meta',
    ],
    ['a record without its key', (l: string[]) => [recordLine(l), '{"c":"consumers","v":{}}'], 'field k'],
    [
      'a record of a collection named by a number',
      (l: string[]) => [recordLine(l), '{"c":5,"k":"x","v":{}}'],
      'field c',
    ],
    [
      'a dataset whose changes are no list',
      (l: string[]) => [withDataset(l, { a: null, o: 7 }), undefined],
      'field o',
    ],
    [
      'a change whose path is no list of names',
      (l: string[]) => [withDataset(l, { a: null, o: [{ p: [1] }] }), undefined],
      'field o[0].p[0]',
    ],
    ['a line that is not JSON', (l: string[]) => [recordLine(l), '{"c":"consumers",'], 'not JSON'],
    [
      'a last line whose count is text',
      (l: string[]) => [l.length - 1, l.at(-1)?.replace(/:(\d+)\}$/, ':"$1"}')],
      'field records',
    ],
  ] as [string, (lines: string[]) => [number, string | undefined], string][])(
    'refuses %s, naming the line and the field, and leaves it untouched',
    async (_what, change, field) => {
      const { file, lines } = await worldFile();
      const [index, text] = change(lines);
      expect(index).toBeGreaterThanOrEqual(0);
      if (text !== undefined) lines[index] = text;
      const content = `${lines.join('\n')}\n`;
      writeFileSync(file, content);
      const message = await refusal(file);
      expect(message).toContain(`${file} is not a valid sandbox world: line ${index + 1}`);
      expect(message).toContain(field);
      expect(readFileSync(file, 'utf8')).toBe(content);
    },
  );

  it('refuses a journal line that is not one, anywhere but a torn last line, which is left out', async () => {
    const { file } = await worldFile();
    const journal = `${file}.journal`;
    const good = (seq: number) =>
      JSON.stringify({ seq, meta: { schema: 1, seed: 3, sequence: 100 + seq }, ops: [] });
    // A torn last line: ignored, the lines before it replayed.
    writeFileSync(journal, `${good(1)}\n${good(2)}\n{"seq":3,"meta":{"sch`);
    const store = await openWorldFile(file, () => seedWorld(3), { readOnly: true });
    expect(store.world.meta.sequence).toBe(102);
    await store.close();
    for (const [lines, where] of [
      [[good(1), '{"seq":2,"meta":', good(3)], 'line 2: not JSON'],
      [[good(1), JSON.stringify({ seq: 2, meta: {}, ops: 5 })], 'line 2, field ops'],
      [[JSON.stringify({ seq: '1', meta: {} })], 'line 1, field seq'],
      [[good(1), JSON.stringify({ seq: 2, meta: {}, ops: [{ p: 'consumers' }] })], 'line 2, field ops[0].p'],
    ] as [string[], string][]) {
      writeFileSync(journal, `${lines.join('\n')}\n`);
      const message = await refusal(file);
      expect(message).toContain(`${journal} is not a valid sandbox world: ${where}`);
    }
  });

  it('the command line says it in one line, with exit code 2', async () => {
    const { file, lines } = await worldFile();
    lines[recordLine(lines)] = '{"c":"consumers","k":"x","v":{}, "oops"}';
    writeFileSync(file, `${lines.join('\n')}\n`);
    const out = runCli(['env', '--db', file]);
    expect(out.code).toBe(2);
    expect(out.stderr.trim().split('\n')).toHaveLength(1);
    expect(out.stderr).toContain(
      `${file} is not a valid sandbox world: line ${recordLine(lines) + 1}: not JSON`,
    );
  }, 60_000);
});
