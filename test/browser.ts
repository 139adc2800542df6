import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { type Browser, chromium } from 'playwright-core';

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
