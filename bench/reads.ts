import { seedDirectory } from '../src/control/seeded-world.js';
import type { Row } from './proc.js';

/**
 * The group `npm run bench -- --only=read`: the authenticated read (`GET /consumers/{id}`), which the
 * request journal records (and scrubs) on its path, then the journal's own read path, a page of
 * `GET /__sandbox/requests` over the full journal those reads left, and the same page with a path
 * filter (which decodes each record's texts). The harness of bench/run.ts is handed in, not written
 * again. A change to what the journal does on either path is measured A/B with this group on both
 * builds.
 */

interface Driven {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  cpuUs: number | null;
}

export interface Harness {
  start(command: string[], ready: string): Promise<{ child: { pid?: number | undefined }; url: string }>;
  stop(server: { child: unknown }): Promise<void>;
  drive(
    url: string,
    options: {
      path: string;
      headers?: Record<string, string>;
      pid?: number | undefined;
      connections?: number;
    },
  ): Promise<Driven>;
  token(url: string): Promise<string>;
  sandboxCommand(...extra: string[]): string[];
  peakRssMiB(pid: number | undefined): number;
  cpuNote(r: { cpuUs: number | null }): string;
}

export async function journalReads(rows: Row[], harness: Harness): Promise<void> {
  const server = await harness.start(harness.sandboxCommand(), '/__sandbox/clock');
  const pid = server.child.pid;
  const bearer = await harness.token(server.url);
  const consumer = seedDirectory(1).verticalConsumers.ACCOUNTING as string;
  const add = (scenario: string, r: Driven) =>
    rows.push({
      scenario,
      world: 'default',
      rps: r.rps,
      p50: r.p50,
      p99: r.p99,
      rssMiB: harness.peakRssMiB(pid),
      note: [`${r.rps} req/s`, harness.cpuNote(r), r.errors ? `${r.errors} non-2xx/errors` : '']
        .filter(Boolean)
        .join('; '),
    });
  try {
    const auth = { authorization: `Bearer ${bearer}` };
    add(
      'GET /consumers/{id} (authenticated, recorded)',
      await harness.drive(server.url, { path: `/consumers/${consumer}`, headers: auth, pid }),
    );
    // The reads above filled the journal (10,000 requests): its pages are read from there, by ten
    // clients (a filtered page takes milliseconds: fifty would wait past autocannon's time-out).
    add(
      'GET /__sandbox/requests?size=50 (full journal, 10 connections)',
      await harness.drive(server.url, { path: '/__sandbox/requests?size=50', pid, connections: 10 }),
    );
    const filtered = '/__sandbox/requests?size=50&path=/consumers/{id}';
    add(
      'GET /__sandbox/requests?size=50&path=/consumers/{id} (full journal, 10 connections)',
      await harness.drive(server.url, { path: filtered, pid, connections: 10 }),
    );
  } finally {
    await harness.stop(server);
  }
}
