import { trimTrailing } from '../lib/text-checks.js';
import type { SandboxConfig } from './context.js';

/** An absolute http(s) url with a host: what the service accepts as a redirect or webhook url. */
export function isHttpUrl(value: string): boolean {
  if (value.length === 0 || value.length > 2048 || /\s/.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
}

/**
 * The base url written into the urls the sandbox hands out (images, connection links): the
 * configured public url, or else the origin the request came to.
 */
export function publicOrigin(config: SandboxConfig, requestUrl: string): string {
  return config.publicUrl ? trimTrailing(config.publicUrl, '/') : new URL(requestUrl).origin;
}
