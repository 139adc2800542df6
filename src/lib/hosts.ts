import { isIP } from 'node:net';

/** What every name and address of loopback comes to (see canonicalHost). */
export const LOOPBACK = 'loopback';

/**
 * The host as the network sees it: every loopback or unspecified address (and the names of
 * loopback) is LOOPBACK, an IPv4-mapped IPv6 address is its IPv4 address, anything else is its
 * lowercase form without brackets or a trailing dot.
 */
export function canonicalHost(hostname: string): string {
  let host = hostname.toLowerCase();
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (host === 'localhost' || host.endsWith('.localhost')) return LOOPBACK;
  const version = isIP(host);
  if (version === 4) {
    const first = Number(host.split('.')[0]);
    return first === 127 || first === 0 ? LOOPBACK : host;
  }
  if (version === 6) {
    const mapped = mappedIPv4(host);
    if (mapped !== null) return canonicalHost(mapped);
    return host === '::1' || host === '::' || host === '0:0:0:0:0:0:0:1' || host === '0:0:0:0:0:0:0:0'
      ? LOOPBACK
      : host;
  }
  return host;
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:7f00:1 or ::ffff:127.0.0.1), or null. */
function mappedIPv4(host: string): string | null {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
  if (dotted?.[1]) return dotted[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (!hex?.[1] || !hex[2]) return null;
  const high = Number.parseInt(hex[1], 16);
  const low = Number.parseInt(hex[2], 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/**
 * The host name of a Host header (or of a url's host): without the port, the brackets of an IPv6
 * address or a trailing dot, lowercase; null when there is none.
 */
export function hostOfHeader(value: string): string | null {
  const text = value.trim().toLowerCase();
  if (text === '') return null;
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    return end > 1 ? text.slice(1, end) : null;
  }
  const colon = text.indexOf(':');
  // More than one colon without brackets: a bare IPv6 address, not host:port.
  const host = colon !== -1 && text.indexOf(':', colon + 1) === -1 ? text.slice(0, colon) : text;
  return host.endsWith('.') ? host.slice(0, -1) : host;
}
