import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a server-side fetch made for a client must never reach: the
 * gateway's own host, its private network, link-local (cloud metadata
 * services) and other special ranges. Checked on the address actually
 * connected to, so a DNS answer cannot smuggle a private address in.
 */
const FORBIDDEN = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) FORBIDDEN.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['::ffff:0:0', 96], ['64:ff9b::', 96]] as const) {
  FORBIDDEN.addSubnet(net, prefix, 'ipv6');
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const mapped = family === 6 ? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] : undefined;
  if (mapped) return isPublicAddress(mapped);
  return !FORBIDDEN.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class ForbiddenAddressError extends Error {}

/**
 * A DNS lookup for connections that must reach only public addresses
 * (literal IPs in URLs are checked by the caller): the address connected to
 * is the one checked here.
 */
export function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const allowed = (addresses as LookupAddress[]).filter((a) => isPublicAddress(a.address));
    if (!allowed.length) return callback(new ForbiddenAddressError(`${hostname} resolves only to private or reserved addresses`), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
    callback(null, allowed[0].address, allowed[0].family);
  });
}

type LookupOptions = LookupAllOptions | (Omit<LookupAllOptions, 'all'> & { all?: boolean });
type LookupCallback = (err: NodeJS.ErrnoException | null, address: string, family: number) => void;

/** Whether a URL names a literal private or reserved IP (which no DNS lookup would catch). */
export function isForbiddenLiteralHost(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) !== 0 && !isPublicAddress(host);
}
