import { isForbiddenLiteralHost, isPublicAddress } from './public-address';

describe('isPublicAddress: IPv6 ranges that embed or lead to IPv4, and other special ranges', () => {
  it.each([
    // ::/96, IPv4-compatible (deprecated): loopback, private and public IPv4 alike, in dotted and hex form.
    ['::'], ['::1'], ['::2'], ['::127.0.0.1'], ['::7f00:1'], ['::10.0.0.1'], ['::a00:1'], ['::169.254.169.254'], ['::8.8.8.8'], ['::ffff:ffff'],
    // IPv4-mapped private addresses, in dotted and hex form; IPv4-translated.
    ['::ffff:127.0.0.1'], ['::ffff:7f00:1'], ['0:0:0:0:0:FFFF:a00:1'], ['::ffff:169.254.169.254'], ['::ffff:0:7f00:1'], ['::ffff:0:808:808'],
    // IPv4 private ranges.
    ['127.0.0.1'], ['10.1.2.3'], ['169.254.169.254'], ['192.168.0.1'], ['100.64.0.1'],
    // 6to4 2002::/16: 192.168.1.1, 127.0.0.1, 10.0.0.1 embedded, a public one, and the ends of the range.
    ['2002:c0a8:101::1'], ['2002:7f00:1::1'], ['2002:a00:1::'], ['2002:808:808::1'], ['2002::'], ['2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    // Teredo 2001::/32.
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2'], ['2001::1'], ['2001:0:ffff:ffff:ffff:ffff:ffff:ffff'],
    // Site-local fec0::/10 (deprecated), both ends.
    ['fec0::'], ['fec0::1'], ['fed0:1234::1'], ['feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    // NAT64: the well-known prefix and the local-use 64:ff9b:1::/48, both ends.
    ['64:ff9b::a00:1'], ['64:ff9b::8.8.8.8'], ['64:ff9b:1::'], ['64:ff9b:1::a00:1'], ['64:ff9b:1:ffff:ffff:ffff:ffff:ffff'],
    // Discard-only, documentation.
    ['100::1'], ['2001:db8::1'], ['3fff::1'], ['3fff:fff:ffff::1'],
    // Unique local, link-local, multicast.
    ['fc00::1'], ['fd12:3456::1'], ['fe80::1'], ['febf:ffff::1'], ['ff02::1'],
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    // Neighbours just outside each range.
    ['::1:0:0'], // above ::/96
    ['2001:1::1'], // above Teredo 2001::/32 (a globally reachable anycast address)
    ['2001:4860:4860::8888'], // public, between Teredo and 6to4
    ['2001:db9::1'], // above 2001:db8::/32
    ['2003:de:2016::1'], // above 2002::/16
    ['2001:1c00::1'], // below 2002::/16
    ['64:ff9b:0:1::1'], // above 64:ff9b::/96, below 64:ff9b:1::/48
    ['64:ff9b:2::1'], // above 64:ff9b:1::/48
    ['64:ff9a:ffff::1'], // below 64:ff9b::/96
    ['3ffe:ffff::1'], // below 3fff::/20
    ['3fff:1000::1'], // above 3fff::/20
    ['fbff:ffff::1'], // below fc00::/7
    // Public addresses.
    ['2606:4700:4700::1111'], ['2a00:1450:4001:80b::200e'],
    // Public IPv4 addresses, plain and IPv4-mapped in either form.
    ['8.8.8.8'], ['1.1.1.1'], ['93.184.216.34'], ['::ffff:8.8.8.8'], ['::ffff:808:808'],
  ])('allows %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('refuses those ranges as literal hosts in URLs', () => {
    for (const url of ['https://[2002:c0a8:101::1]/x.png', 'https://[::7f00:1]/x.png', 'https://[fec0::1]/x.png', 'https://[64:ff9b:1::a9fe:a9fe]/x.png']) {
      expect(isForbiddenLiteralHost(new URL(url))).toBe(true);
    }
    expect(isForbiddenLiteralHost(new URL('https://[2606:4700:4700::1111]/x.png'))).toBe(false);
    expect(isForbiddenLiteralHost(new URL('https://example.com/x.png'))).toBe(false);
  });
});
