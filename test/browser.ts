import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { type Browser, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * The browser of the browser tests: Debian's Chromium when it is installed, else the headless
 * Chromium that the @sparticuz/chromium dev dependency ships inside its npm package (brotli files,
 * unpacked once into the temporary folder by Node alone; nothing is downloaded). That build needs
 * only glibc: the NSS libraries it links to ship in the same package and go on its library path.
 *
 * TEST_BROWSER=bundled uses the packaged one even where Debian's is installed; TEST_BROWSER=<path>
 * names another Chromium binary.
 */
const SYSTEM_CHROMIUM = '/usr/bin/chromium';

const COMMON_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface BrowserChoice {
  /** 'system', 'bundled' or the path given in TEST_BROWSER. */
  source: string;
  executablePath: string;
  args: string[];
  env?: Record<string, string>;
}

const require = createRequire(import.meta.url);

/** Extracts a tar archive of plain files and folders (all these archives hold) into a folder. */
function untar(tar: Buffer, into: string, name: string): void {
  const text = (from: number, length: number) =>
    tar
      .subarray(from, from + length)
      .toString('utf8')
      .replace(/\0.*$/s, '');
  for (let at = 0; at + 512 <= tar.length && tar[at] !== 0; ) {
    const prefix = text(at + 345, 155);
    const path = (prefix ? `${prefix}/` : '') + text(at, 100);
    const size = Number.parseInt(text(at + 124, 12).trim() || '0', 8);
    const mode = Number.parseInt(text(at + 100, 8).trim() || '644', 8);
    const type = String.fromCharCode(tar[at + 156] || 48);
    const target = join(into, path);
    if (!target.startsWith(`${into}/`) || path.split('/').includes('..')) {
      throw new Error(`${name}: unexpected entry ${path}`);
    }
    if (type === '5') mkdirSync(target, { recursive: true });
    else if (type === '0') {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, tar.subarray(at + 512, at + 512 + size), { mode: mode & 0o777 });
    } else throw new Error(`${name}: entry ${path} of type ${type} is not a plain file or folder`);
    at += 512 + Math.ceil(size / 512) * 512;
  }
}

/** Unpacks the packaged Chromium (once per version) and says how to run it. */
function bundledChromium(): BrowserChoice {
  // The package's entry is build/{esm,cjs}/index.*; its brotli files are in bin/.
  const root = join(dirname(require.resolve('@sparticuz/chromium')), '..', '..');
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const bin = join(root, 'bin');
  const dir = join(tmpdir(), `unified-api-sandbox-chromium-${version}`);
  if (!existsSync(join(dir, 'chromium'))) {
    const staging = `${dir}.${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    const unpack = (name: string) => brotliDecompressSync(readFileSync(join(bin, name)));
    // The NSS libraries (lib/), the software GL next to the binary, and a font.
    for (const archive of ['al2023.tar.br', 'swiftshader.tar.br', 'fonts.tar.br']) {
      untar(unpack(archive), staging, archive);
    }
    writeFileSync(
      join(staging, 'fonts.conf'),
      `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n` +
        `  <dir>${join(dir, 'fonts')}</dir>\n  <cachedir>${join(dir, 'fonts-cache')}</cachedir>\n</fontconfig>\n`,
    );
    writeFileSync(join(staging, 'chromium'), unpack('chromium.br'), { mode: 0o755 });
    try {
      renameSync(staging, dir);
    } catch (error) {
      // Another process unpacked it first.
      rmSync(staging, { recursive: true, force: true });
      if (!existsSync(join(dir, 'chromium'))) throw error;
    }
  }
  return {
    source: 'bundled',
    executablePath: join(dir, 'chromium'),
    args: [...COMMON_ARGS, '--no-zygote'],
    env: {
      LD_LIBRARY_PATH: [join(dir, 'lib'), process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
      FONTCONFIG_PATH: dir,
    },
  };
}

export function chooseBrowser(): BrowserChoice {
  const wanted = process.env.TEST_BROWSER;
  if (wanted === 'bundled') return bundledChromium();
  if (wanted) return { source: wanted, executablePath: wanted, args: COMMON_ARGS };
  if (existsSync(SYSTEM_CHROMIUM))
    return { source: 'system', executablePath: SYSTEM_CHROMIUM, args: COMMON_ARGS };
  return bundledChromium();
}

/** Launches the chosen Chromium, headless, through playwright-core. */
export async function launchBrowser(): Promise<{ browser: Browser; choice: BrowserChoice }> {
  const choice = chooseBrowser();
  const browser = await chromium.launch({
    executablePath: choice.executablePath,
    headless: true,
    args: choice.args,
    ...(choice.env ? { env: { ...process.env, ...choice.env } } : {}),
  });
  return { browser, choice };
}

/** A browser for a describe block, launched in its beforeAll. */
export interface SuiteBrowser {
  /** The browser, when it started. */
  started: Browser | undefined;
  /** The browser; when it did not start, throws why (call it in the test, which then fails with the reason). */
  browser(): Browser;
  close(): Promise<void>;
}

/**
 * Launches the browser and keeps a failure to launch instead of throwing it: a failure in a hook
 * would only show the tests as skipped, so browser() throws it in the test instead.
 */
export async function launchForSuite(): Promise<SuiteBrowser> {
  let started: Browser | undefined;
  let failure: unknown;
  try {
    ({ browser: started } = await launchBrowser());
  } catch (error) {
    failure = error;
  }
  return {
    started,
    browser() {
      if (!started) throw new Error(`The browser did not start: ${failure}`);
      return started;
    },
    close: async () => {
      await started?.close();
    },
  };
}

/** What a page did, recorded from when trackPage was called. */
export interface PageTrack {
  /** The URL of every request. */
  requests: string[];
  /** `${method} ${url}` of every request. */
  calls: string[];
  /** `${url}: ${error text}` of every request that failed. */
  failures: string[];
  /** `${url}: HTTP ${status}` of every answer of status 400 or more. */
  httpErrors: string[];
  /** The text of every console message of type error. */
  consoleErrors: string[];
  /** The message of every uncaught error of the page. */
  pageErrors: string[];
  /** Forgets what was recorded (for tests that share one page). */
  clear(): void;
}

export function trackPage(page: Page): PageTrack {
  const track: PageTrack = {
    requests: [],
    calls: [],
    failures: [],
    httpErrors: [],
    consoleErrors: [],
    pageErrors: [],
    clear() {
      for (const list of [
        track.requests,
        track.calls,
        track.failures,
        track.httpErrors,
        track.consoleErrors,
        track.pageErrors,
      ]) {
        list.length = 0;
      }
    },
  };
  page.on('request', (request) => {
    track.requests.push(request.url());
    track.calls.push(`${request.method()} ${request.url()}`);
  });
  page.on('requestfailed', (request) =>
    track.failures.push(`${request.url()}: ${request.failure()?.errorText}`),
  );
  page.on('response', (response) => {
    if (response.status() >= 400) track.httpErrors.push(`${response.url()}: HTTP ${response.status()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') track.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => track.pageErrors.push(error.message));
  return track;
}

/** What a page may do besides asking its origin for pages that answer below 400, without an error. */
export interface Allowed {
  /** URL prefixes other than the origin's that requests may ask for, e.g. 'data:'. */
  elsewhere?: string[];
  /** Error texts of failed requests to pass over, e.g. net::ERR_ABORTED. */
  failedWith?: string[];
  /** The answers of status 400 or more expected: exactly these, in this order, as in PageTrack. */
  httpErrors?: string[];
  /** Console errors to pass over (only those matching). */
  consoleErrors?: RegExp;
}

/**
 * Asserts that the page asked the origin alone (no request left the sandbox), with no failed request,
 * no answer of 400 or more, no page error and no console error, but for what `allowed` names.
 */
export function expectOnlyOrigin(track: PageTrack, origin: string, allowed: Allowed = {}): void {
  const prefixes = [`${origin}/`, ...(allowed.elsewhere ?? [])];
  expect(
    track.requests.filter((url) => !prefixes.some((prefix) => url.startsWith(prefix))),
    'requests that left the sandbox',
  ).toEqual([]);
  const passed = (allowed.failedWith ?? []).map((text) => `: ${text}`);
  expect(
    track.failures.filter((failure) => !passed.some((end) => failure.endsWith(end))),
    'failed requests',
  ).toEqual([]);
  expect(track.httpErrors, 'answers of status 400 or more').toEqual(allowed.httpErrors ?? []);
  expect(track.pageErrors, 'page errors').toEqual([]);
  const consoleErrors = allowed.consoleErrors;
  expect(
    track.consoleErrors.filter((text) => !consoleErrors?.test(text)),
    'console errors',
  ).toEqual([]);
}
