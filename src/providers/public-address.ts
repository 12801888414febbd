import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { BlockList, isIP, SocketAddress } from 'node:net';

/**
 * Addresses a server-side fetch made for a client must never reach: the
 * gateway's own host, its private network, link-local (cloud metadata
 * services) and other special ranges, in IPv6 forms that embed an IPv4
 * address too (mapped, compatible, NAT64, 6to4, Teredo): those are refused
 * whole, as what they lead to depends on a translator or relay. Checked on
 * the address actually connected to, so a DNS answer cannot smuggle a
 * private address in.
 */
const FORBIDDEN = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) FORBIDDEN.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  // Unspecified, loopback and the deprecated IPv4-compatible addresses (::a.b.c.d, RFC 4291 2.5.5.1), which embed an IPv4 address.
  ['::', 96],
  // IPv4-translated (::ffff:0:a.b.c.d, RFC 2765). IPv4-mapped addresses (::ffff:a.b.c.d) are judged by their IPv4
  // address (isPublicAddress): a ::ffff:0:0/96 rule here would match every IPv4 address, as BlockList
  // compares IPv4 addresses and IPv4-mapped IPv6 ones as the same.
  ['::ffff:0:0:0', 96],
  // NAT64: the well-known prefix and the local-use one (RFC 8215), both leading to IPv4 addresses of the translator's choosing.
  ['64:ff9b::', 96], ['64:ff9b:1::', 48],
  // Discard-only (RFC 6666).
  ['100::', 64],
  // Teredo (RFC 4380) and 6to4 (RFC 3056): tunnels whose addresses embed an IPv4 address, which may be private.
  ['2001::', 32], ['2002::', 16],
  // Documentation (RFC 3849, RFC 9637).
  ['2001:db8::', 32], ['3fff::', 20],
  // Unique local, link-local, the deprecated site-local (RFC 3879), multicast.
  ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) {
  FORBIDDEN.addSubnet(net, prefix, 'ipv6');
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const mapped = family === 6 ? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(canonicalIPv6(address))?.[1] : undefined;
  if (mapped) return isPublicAddress(mapped);
  return !FORBIDDEN.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The compressed form, with an IPv4-mapped address in dotted form whatever form it was written in (`::ffff:7f00:1` -> `::ffff:127.0.0.1`). */
function canonicalIPv6(address: string): string {
  try {
    return new SocketAddress({ address, family: 'ipv6' }).address;
  } catch {
    return address;
  }
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
