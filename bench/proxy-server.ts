import { startProxy } from '../src/proxy/index.js';

/** The recording proxy in a process of its own, for bench/proxy.ts: prints its url. */
const upstream = process.argv[2];
if (!upstream) throw new Error('usage: proxy-server.ts <upstream url>');
const proxy = await startProxy({ upstream });
console.log(proxy.url);
process.once('SIGTERM', () => void proxy.close().then(() => process.exit(0)));
